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
import { type EvmSolver, evmSolver } from "../../src/chains/evm/evmSolver.js";
import { everyRole } from "../../src/chains/everyRole.js";
import { requireSetting } from "../../src/roleSettings.js";
import { createPool } from "../createPool.js";
import { logConnectionError } from "../logConnectionError.js";
import type { FamilyFactories } from "./familyFactories.js";

/**
 * The EVM family's factories: one solver key signs orders (the gateway) and fills, refunds and approvals (the
 * worker) on every EVM chain; Ponder records its facts, a head watcher beside it; its devnet is one anvil per
 * DEVNET_CHAIN_IDS with the contracts deployed and the test accounts funded.
 */
export const evmFactories: FamilyFactories<EvmChainConfig, EvmKeys, { solver: EvmSolver }, DevnetChains> = {
  vmType: "evm",
  label: "EVM",
  family: evmChainFamily,
  keySchema: evmKeySchema,
  roleKeys: (keys) => ({
    solver: evmSolver(requireSetting(keys.solverPrivateKey, "SOLVER_PRIVATE_KEY", "to sign orders and fills")),
  }),
  adapter: (chain, keys) => {
    if (!keys.solver) throw new Error(`no EVM solver key to make chain ${chain.id}'s adapter with`);
    return everyRole(createEvmAdapter(chain, { solver: keys.solver }));
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
        keys: { solverPrivateKey: devnet.solver.privateKey },
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
