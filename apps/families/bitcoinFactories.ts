import type pg from "pg";
import { devnetBitcoinChain } from "../../devnet/bitcoin/devnetBitcoinChain.js";
import { type DevnetBitcoin, startDevnetBitcoin } from "../../devnet/bitcoin/startDevnetBitcoin.js";
import { esploraSource } from "../../indexers/bitcoin/esploraSource.js";
import type { PollerChain } from "../../indexers/startPollers.js";
import { depositAddressOwners, watchedDepositAddresses } from "../../schema/depositAddresses.js";
import { bitcoinChainConfigSchema, bitcoinChainFamily } from "../../src/chains/bitcoin/bitcoinChainFamily.js";
import { type BitcoinKeys, bitcoinKeySchema } from "../../src/chains/bitcoin/bitcoinKeys.js";
import { type BitcoinAdapterOptions, createBitcoinAdapter } from "../../src/chains/bitcoin/createBitcoinAdapter.js";
import type { BitcoinChainConfig } from "../../src/chains/chainConfig.js";
import { type FamilyFactories, setVariables } from "./familyFactories.js";
import { startPollerIndexer } from "./startPollerIndexer.js";

/**
 * A Bitcoin chain's poller: its Esplora read from its `startBlock`, at the head every tenth of a block time (at most
 * 5 s), so a block is recorded soon after it is mined; the deposit addresses quoted on the chain (read from `pool`)
 * are watched beside the depository.
 */
function bitcoinPollerChain(chain: BitcoinChainConfig, pool: pg.Pool): PollerChain {
  return {
    chainId: chain.id,
    startHeight: chain.startBlock,
    pollEveryMs: Math.min(5_000, chain.blockTimeSeconds * 100),
    source: esploraSource({
      esploraUrl: chain.esploraUrl,
      network: chain.network,
      depository: chain.depository,
      solver: chain.solver,
      depositAddresses: {
        known: (addresses) => depositAddressOwners(pool, chain.id, addresses),
        watched: () => watchedDepositAddresses(pool, chain.id),
      },
    }),
  };
}

type BitcoinAdapterKeys = Omit<BitcoinAdapterOptions, "depositAddresses">;

/**
 * Bitcoin's factories. The gateway holds only the deposit-address account's extended public key (it derives
 * addresses); the worker its private key and the depository's and solver wallet's keys (sweeps, refunds, payouts).
 * Its facts are read by a poller of each chain's Esplora; its devnet is the in-process Esplora stand-in.
 */
export const bitcoinFactories: FamilyFactories<BitcoinChainConfig, BitcoinKeys, BitcoinAdapterKeys, DevnetBitcoin> = {
  vmType: "bvm",
  label: "Bitcoin, Esplora",
  family: bitcoinChainFamily,
  keySchema: bitcoinKeySchema,
  roleKeys: (keys, role) =>
    role === "api"
      ? { depositAddressKey: keys.depositXpub, maxFeeRateSatVb: keys.maxFeeRateSatVb }
      : {
          depositoryWif: keys.depositoryWif,
          solverWif: keys.solverWif,
          depositAddressKey: keys.depositXprv,
          maxFeeRateSatVb: keys.maxFeeRateSatVb,
        },
  keysRefused: (keys, role) =>
    role !== "worker"
      ? setVariables({
          BITCOIN_DEPOSITORY_WIF: keys.depositoryWif,
          BITCOIN_SOLVER_WIF: keys.solverWif,
          BITCOIN_DEPOSIT_XPRV: keys.depositXprv,
        })
      : [],
  // A chain without a solver wallet is no destination: its adapter offers no solver role.
  adapter: (chain, keys, { pool }) => {
    const adapter = createBitcoinAdapter(chain, {
      ...keys,
      ...(pool ? { depositAddresses: (addresses) => depositAddressOwners(pool, chain.id, addresses) } : {}),
    });
    return { quoter: adapter, deposits: adapter, refunder: adapter, ...(chain.solver ? { solver: adapter } : {}) };
  },
  indexer: {
    command: "bitcoin",
    description: "the Esplora pollers of the chains file's Bitcoin chains",
    start: (context) => startPollerIndexer(context, "Bitcoin", bitcoinPollerChain),
  },
  pollerChain: bitcoinPollerChain,
  // The devnet's keys are public (devnet/bitcoin/devnetBitcoinKey.ts): refunds and payouts are signed on the devnet,
  // and deposit addresses work out of the box with its account key unless the environment names another.
  devnet: async ({ config, keys }) => {
    const bitcoin = await startDevnetBitcoin({ blockTimeMs: Math.round(config.DEVNET_BITCOIN_BLOCK_TIME * 1000) });
    const entry = devnetBitcoinChain(bitcoin);
    return {
      chains: [bitcoinChainConfigSchema.parse(entry)],
      keys: {
        depositoryWif: bitcoin.depository.wif,
        solverWif: bitcoin.solver.wif,
        depositXpub: keys.depositXpub ?? bitcoin.depositAddressKey.xpub,
        depositXprv: keys.depositXprv ?? bitcoin.depositAddressKey.xprv,
        maxFeeRateSatVb: keys.maxFeeRateSatVb,
      },
      manifest: { chains: [entry] },
      devnet: bitcoin,
      stop: bitcoin.stop,
    };
  },
};
