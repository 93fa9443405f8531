import type pg from "pg";
import type { Logger } from "pino";
import { foldRequestCountChanges } from "../schema/foldRequestCountChanges.js";
import { foldRequestStatsChanges } from "../schema/foldRequestStatsChanges.js";
import { repeatEvery } from "../src/runtime/repeatEvery.js";

/** Readers add up at most this long's changes on top of the rollups. */
export const STATS_FOLD_EVERY_MS = 5_000;

/**
 * Folds the requestStats rollups' and the listing counts' pending changes every STATS_FOLD_EVERY_MS, off the
 * money path (a status change only appends). Every worker may run it: a fold that finds another running skips.
 */
export function startStatsFold(deps: { pool: pg.Pool; logger: Logger; everyMs?: number }): { close(): Promise<void> } {
  return repeatEvery(
    deps.everyMs ?? STATS_FOLD_EVERY_MS,
    async () => {
      const moved = await foldRequestStatsChanges(deps.pool);
      if (moved) deps.logger.debug({ moved }, "requestStats changes folded");
      const counted = await foldRequestCountChanges(deps.pool);
      if (counted) deps.logger.debug({ moved: counted }, "listing count changes folded");
    },
    (error) => deps.logger.warn({ err: error }, "requestStats fold failed"),
  );
}
