import { devnetAccounts } from "../../devnet/devnetAccounts.js";
import { type DevnetAggregators, startDevnetAggregators } from "../../devnet/prices/startDevnetAggregators.js";
import { type DevnetChains, startDevnetChains } from "../../devnet/startDevnetChains.js";
import { startEvmIndexer } from "../../indexers/evm/startEvmIndexer.js";
import { recordIndexerHeads } from "../../indexers/recordIndexerHeads.js";
import { startDepositWatchers } from "../../indexers/startDepositWatchers.js";
import { migrate } from "../../schema/migrate.js";
import { evmChainFamily } from "../../src/chains/evm/evmChainFamily.js";
import type { EvmChainConfig } from "../../src/chains/chainConfig.js";
import { createEvmAdapter } from "../../src/chains/evm/createEvmAdapter.js";
import { type EvmKeys, evmKeySchema } from "../../src/chains/evm/evmKeys.js";
import { type EvmSolver, evmSolver, evmSolverAddress } from "../../src/chains/evm/evmSolver.js";
import type { OrderSigner } from "../../src/chains/evm/orderSigner.js";
import { remoteOrderSigner } from "../../src/chains/evm/remoteOrderSigner.js";
import { everyRole } from "../../src/chains/everyRole.js";
import { requireSetting } from "../../src/roleSettings.js";
import { createPool } from "../createPool.js";
import { logConnectionError } from "../logConnectionError.js";
import { type FamilyFactories, setVariables } from "./familyFactories.js";

/**
 * The EVM family's factories: one solver key, the worker's, signs fills, refunds and approvals on every EVM chain, and
 * the orders of the gateway's quotes through its order signer service (the gateway knows the solver's address only); Ponder records its facts, a head watcher beside it; its devnet is one anvil per
 * DEVNET_CHAIN_IDS with the contracts deployed and the test accounts funded.
 */
export const evmFactories: FamilyFactories<
  EvmChainConfig,
  EvmKeys,
  { solver: EvmSolver; orderSigner?: OrderSigner },
  DevnetChains
> = {
  vmType: "evm",
  label: "EVM",
  family: evmChainFamily,
  keySchema: evmKeySchema,
  roleKeys: (keys, role) => {
    if (role === "worker")
      return { solver: evmSolver(requireSetting(keys.solverPrivateKey, "SOLVER_PRIVATE_KEY", "to sign fills")) };
    const address = requireSetting(keys.solverAddress, "SOLVER_ADDRESS", "for the gateway (the EVM solver's address)");
    if (!keys.orderSignerUrl) return { solver: evmSolverAddress(address) };
    const token = requireSetting(keys.orderSignerToken, "ORDER_SIGNER_TOKEN", "with ORDER_SIGNER_URL");
    return {
      solver: evmSolverAddress(address),
      orderSigner: remoteOrderSigner({ url: keys.orderSignerUrl, token, address }),
    };
  },
  // The solver's key moves funds: the worker signs with it (and signs orders for the gateway, ORDER_SIGNER_URL). The
  // signer's token has orders signed: the gateway shows it, an indexer has no use for it.
  keysRefused: (keys, role) =>
    role === "worker"
      ? []
      : setVariables({
          SOLVER_PRIVATE_KEY: keys.solverPrivateKey,
          ...(role === "indexer" ? { ORDER_SIGNER_TOKEN: keys.orderSignerToken } : {}),
        }),
  adapter: (chain, keys) => {
    if (!keys.solver) throw new Error(`no EVM solver to make chain ${chain.id}'s adapter with`);
    return everyRole(
      createEvmAdapter(chain, { solver: keys.solver, ...(keys.orderSigner ? { orderSigner: keys.orderSigner } : {}) }),
    );
  },
  indexer: {
    command: "evm",
    description: "the Ponder EVM indexer",
    async start({ config, chains, chainsFile, databaseUrl, logger, quiet, stopping, onExit }) {
      const indexer = await startEvmIndexer({
        databaseUrl,
        chainsFile,
        port: config.INDEXER_PORT,
        viewsSchema: config.ONCHAIN_SCHEMA,
        ...(quiet ? { logLevel: config.LOG_LEVEL === "silent" ? "silent" : "warn" } : {}),
        // Beside the other roles (npm start, tests) Ponder stops in order with them; alone it shares the role's group.
        ownProcessGroup: quiet ?? false,
        onExit: ({ expected, code, signal }) => {
          if (!expected) onExit({ code, signal });
        },
      });
      const pool = createPool(databaseUrl, logConnectionError(logger, stopping), 2 + chains.length);
      try {
        logger.info({ schema: indexer.schema, viewsSchema: indexer.viewsSchema }, "indexer ready");
        // One connection per head watcher, so one chain's deposits never wait for another's insert.
        await migrate(pool);
        const heads = recordIndexerHeads(pool, indexer, logger);
        const watchers = config.EVM_DEPOSIT_WATCHER
          ? startDepositWatchers({ pool, logger, chains, ...(stopping ? { stopping } : {}) })
          : undefined;
        return async () => {
          await watchers?.stop();
          await heads.close();
          await indexer.stop();
          await pool.end();
        };
      } catch (error) {
        await indexer.stop();
        await pool.end();
        throw error;
      }
    },
  },
  // The devnet solver's key is public (devnet/devnetAccounts.ts); it signs on the devnet whatever the environment says.
  devnet: async ({ config, freePorts, priceBook }) => {
    const devnet = await startDevnetChains({
      chainIds: [...config.DEVNET_CHAIN_IDS],
      ...(freePorts ? {} : { basePort: config.DEVNET_BASE_PORT }),
      blockTime: config.DEVNET_BLOCK_TIME,
    });
    let aggregators: DevnetAggregators | undefined;
    const stop = async () => {
      await aggregators?.stop();
      await devnet.stop();
    };
    try {
      // The price service's aggregators on the first chain (as Chainlink's BTC/USD lives on Ethereum): one chain's
      // rounds every few seconds price every symbol; on each chain they would only multiply the posting.
      if (priceBook) {
        const host = devnet.chains[0]!;
        aggregators = await startDevnetAggregators({
          book: priceBook,
          chain: host,
          ownerPrivateKey: devnetAccounts().priceService.privateKey,
        });
        for (const [symbol, address] of Object.entries(aggregators.aggregators))
          host.prices[symbol] = { ...host.prices[symbol], aggregator: address };
      }
      // The manifest names each chain's genesis block: the indexer's schema changes with it (a new devnet each start).
      const genesis = await Promise.all(devnet.chains.map((chain) => genesisHash(chain.rpcUrl)));
      return {
        chains: devnet.chains,
        // The signer service is the composition's (serveDevnetOrderSigner): its URL and token are set there.
        keys: {
          solverPrivateKey: devnet.solver.privateKey,
          solverAddress: devnet.solver.address,
          orderSignerUrl: undefined,
          orderSignerToken: undefined,
        },
        manifest: {
          chains: devnet.chains.map((chain, index) => ({ ...chain, genesisHash: genesis[index] })),
          fields: {
            solver: devnet.solver.address,
            accounts: devnet.accounts.map((account) => ({ address: account.address, privateKey: account.privateKey })),
          },
        },
        devnet,
        stop,
      };
    } catch (error) {
      await stop();
      throw error;
    }
  },
};

async function genesisHash(rpcUrl: string): Promise<string> {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_getBlockByNumber", params: ["0x0", false] }),
  });
  return ((await response.json()) as { result: { hash: string } }).result.hash;
}
