import type pg from "pg";
import { devnetExchangeChain } from "../../devnet/hypevm/devnetExchangeChain.js";
import { type DevnetExchange, startDevnetExchange } from "../../devnet/hypevm/startDevnetExchange.js";
import { exchangeLedgerSource } from "../../indexers/hypevm/exchangeLedgerSource.js";
import type { PollerChain } from "../../indexers/startPollers.js";
import { orderOfMappedTransfer, orderOfSentRefund, requestOfSignedFill } from "../../schema/exchangeTransfers.js";
import { createExchangeApi } from "../../src/chains/hypevm/exchangeApi.js";
import {
  type HypevmChainConfig,
  hypevmChainConfigSchema,
  hypevmChainFamily,
} from "../../src/chains/hypevm/hypevmChainFamily.js";
import { type HypevmKeys, hypevmKeySchema } from "../../src/chains/hypevm/hypevmKeys.js";
import { hypevmRoles } from "../../src/chains/hypevm/hypevmRoles.js";
import { type FamilyFactories, setVariables } from "./familyFactories.js";
import { startPollerIndexer } from "./startPollerIndexer.js";

type HypevmRoleKeys = { solverPrivateKey?: `0x${string}`; depositoryPrivateKey?: `0x${string}` };

/** What a transfer is read against, by the poller and the manual index alike: the role database's nonce mappings, stored fills and refunds. */
const factReaders = (pool: pg.Pool, chainId: number) => ({
  orderOf: (sender: string, nonce: bigint) => orderOfMappedTransfer(pool, sender, nonce),
  fillOf: (solver: string, nonce: bigint) => requestOfSignedFill(pool, chainId, solver, nonce),
  refundOf: (txHashes: readonly string[]) => orderOfSentRefund(pool, chainId, txHashes),
});

/** The exchange's poller (deposits, fills, refunds): the depository's and the solver's ledgers from the chain's `startBlock` (seconds), every 250 ms. */
function hypevmPollerChain(chain: HypevmChainConfig, pool: pg.Pool): PollerChain {
  return {
    chainId: chain.id,
    pollEveryMs: 250,
    source: exchangeLedgerSource({
      api: createExchangeApi({ chainId: chain.id, exchangeUrl: chain.exchangeUrl }),
      depository: chain.depository,
      ...(chain.solver ? { solver: chain.solver } : {}),
      startTimeMs: chain.startBlock * 1000,
      ...factReaders(pool, chain.id),
    }),
  };
}

/**
 * The perps exchange's factories: the worker holds the solver's and the depository's exchange keys
 * (PERPS_SOLVER_PRIVATE_KEY, PERPS_DEPOSITORY_PRIVATE_KEY), the gateway none; the adapter reads nonce mappings
 * through the role's database; its facts are read by a poller of the two accounts' ledgers; its devnet is the local
 * exchange (devnet/hypevm).
 */
export const hypevmFactories: FamilyFactories<HypevmChainConfig, HypevmKeys, HypevmRoleKeys, DevnetExchange> = {
  vmType: "hypevm",
  family: hypevmChainFamily,
  label: "perps exchange API",
  keySchema: hypevmKeySchema,
  roleKeys: (keys, role) =>
    role === "worker"
      ? {
          ...(keys.solverPrivateKey ? { solverPrivateKey: keys.solverPrivateKey as `0x${string}` } : {}),
          ...(keys.depositoryPrivateKey ? { depositoryPrivateKey: keys.depositoryPrivateKey as `0x${string}` } : {}),
        }
      : {},
  // The worker signs the exchange's transfers with them; the gateway, facing the internet, never holds them.
  keysRefused: (keys, role) =>
    role !== "worker"
      ? setVariables({
          PERPS_SOLVER_PRIVATE_KEY: keys.solverPrivateKey,
          PERPS_DEPOSITORY_PRIVATE_KEY: keys.depositoryPrivateKey,
        })
      : [],
  adapter: (chain, keys, ports) => {
    if (!ports.pool)
      return hypevmRoles(chain, keys, async () => {
        throw new Error(`chain ${chain.id}'s adapter reads nonce mappings: it needs the role's database`);
      });
    const { orderOf, ...settlements } = factReaders(ports.pool, chain.id);
    return hypevmRoles(chain, keys, orderOf, settlements);
  },
  indexer: {
    command: "hypevm",
    description: "the ledger pollers of the chains file's perps exchange",
    start: (context) => startPollerIndexer(context, "Exchange", hypevmPollerChain),
  },
  pollerChain: hypevmPollerChain,
  // The devnet's keys are public (devnet/hypevm/devnetExchangeKey.ts); its accounts are funded on the exchange.
  devnet: async () => {
    const exchange = await startDevnetExchange();
    const entry = { ...devnetExchangeChain(exchange), startBlock: Math.floor(Date.now() / 1000) - 1 };
    return {
      chains: [hypevmChainConfigSchema.parse(entry)],
      keys: { solverPrivateKey: exchange.solver.privateKey, depositoryPrivateKey: exchange.depository.privateKey },
      manifest: { chains: [entry] },
      devnet: exchange,
      stop: exchange.stop,
    };
  },
};
