/**
 * Ponder config of the EVM indexer (root `indexers/evm`, whose ponder.config.ts re-exports this file).
 *
 * The one place besides src/config.ts allowed to read process.env: Ponder executes this file itself.
 *   CROSSFILL_CHAINS_FILE  path of the chains file (`{chains: [...]}`, see src/chains/chainConfig.ts)
 *   DATABASE_URL           Postgres (PGlite cannot be read by other processes, so it is not an option)
 */
import { createConfig } from "ponder";
import { depositoryAbi, receiverAbi } from "./contracts/abis.js";
import { type EvmChainConfig, isEvmChain, loadChainsFile } from "./src/chains/chainConfig.js";

const chainsFile = process.env.CROSSFILL_CHAINS_FILE;
if (!chainsFile) throw new Error("CROSSFILL_CHAINS_FILE must point at the chains file (JSON {chains: [...]})");
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error("DATABASE_URL must be set: the EVM indexer writes to Postgres");

// Ponder indexes the EVM chains; the other families have their pollers (`crossfill indexer <vm>`).
const chains = loadChainsFile(chainsFile).filter(isEvmChain);

/**
 * Local nodes (devnet anvil) restart with fresh state under the same chain id and, deployed by the same
 * account, the same contract addresses: Ponder's shared RPC cache (`ponder_sync`) would replay the facts of
 * a previous run. Never cache them; real chains keep the cache.
 */
function isLocalRpc(chain: EvmChainConfig): boolean {
  const host = new URL(chain.rpcUrl).hostname;
  return host === "127.0.0.1" || host === "localhost" || host === "[::1]" || host === "0.0.0.0";
}

const byName = <T>(f: (chain: EvmChainConfig) => T): Record<string, T> =>
  Object.fromEntries(chains.map((chain) => [chain.name, f(chain)]));

export default createConfig({
  database: { kind: "postgres", connectionString: databaseUrl, poolConfig: { max: 14 } },
  // Chains are independent (a deposit on one, a fill on another): each chain's events are indexed as soon as
  // its own block arrives, instead of waiting for every chain to reach the same timestamp (omnichain).
  ordering: "multichain",
  chains: byName((chain) => ({
    id: chain.id,
    rpc: chain.rpcUrl,
    // Realtime blocks by subscription (~12 ms to the row locally) when the chain has a websocket endpoint;
    // otherwise polling every 100 ms (Ponder's minimum).
    ...(chain.wsUrl ? { ws: chain.wsUrl } : {}),
    pollingInterval: 100,
    disableCache: isLocalRpc(chain),
  })),
  contracts: {
    // Receipts give each fact its transaction's fee (the records' inTxs/outTxs fee).
    Depository: {
      abi: depositoryAbi,
      includeTransactionReceipts: true,
      chain: byName((chain) => ({ address: chain.depository as `0x${string}`, startBlock: chain.startBlock })),
    },
    Receiver: {
      abi: receiverAbi,
      includeTransactionReceipts: true,
      chain: byName((chain) => ({ address: chain.receiver as `0x${string}`, startBlock: chain.startBlock })),
    },
  },
});
