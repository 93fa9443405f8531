import type pg from "pg";
import type { Logger } from "pino";
import type { FactPosition } from "../src/domain/factPosition.js";
import { repeatEvery } from "../src/runtime/repeatEvery.js";
import { recordChainHead } from "../schema/chainHeads.js";

/**
 * Copies the heads an indexer has reached into `chain_heads` every `everyMs`, so every gateway replica can tell a
 * chain whose head stopped moving (the spec's blockProductionLagging).
 */
export function recordIndexerHeads(
  pool: pg.Pool,
  indexer: { heads(): Promise<ReadonlyMap<number, FactPosition>> },
  logger: Logger,
  everyMs = 1_000,
): { close(): Promise<void> } {
  return repeatEvery(
    everyMs,
    async () => {
      for (const [chainId, blockNumber] of await indexer.heads()) {
        await recordChainHead(pool, chainId, BigInt(blockNumber));
      }
    },
    (error) => logger.warn({ err: error }, "could not record the indexer's heads"),
  );
}
