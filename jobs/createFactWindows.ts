import type { FactWindow } from "../schema/unappliedFacts.js";

export type FactWindowOptions = {
  /** What the frequent pass reads: facts indexed in the last this many seconds. */
  recentSeconds: number;
  /** How often a pass reads every fact instead, at most. */
  fullEveryMs: number;
  /**
   * At most this share of the time goes to full reads: one that took 1.7 s (a million deposits) is next run 170 s
   * later at 0.01, not every `fullEveryMs`.
   */
  fullReadShare: number;
};

/**
 * Facts reach the reconcile seconds after their block, so its frequent pass reads only the latest ones (index scans,
 * whatever the history); older ones — an indexer catching up on hours-old blocks, a pass that failed — wait for the
 * next full read. Longer than any pass, shorter than anyone would wait for a deposit of an indexer back from an outage.
 */
export const DEFAULT_FACT_WINDOWS: FactWindowOptions = { recentSeconds: 300, fullEveryMs: 30_000, fullReadShare: 0.01 };

/**
 * Runs reconcile passes, each over the facts window that is due: the first reads all, and then one every
 * `fullEveryMs`, or less often when full reads take long (`fullReadShare`); a full read that left more to read is
 * followed by another at once.
 */
export function createFactWindows(options: FactWindowOptions = DEFAULT_FACT_WINDOWS, now: () => number = Date.now) {
  let nextFullAt = -Infinity;
  return async function runPass<T extends { more: boolean }>(pass: (window: FactWindow) => Promise<T>): Promise<T> {
    const startedAt = now();
    const full = startedAt >= nextFullAt;
    const result = await pass(full ? {} : { recentSeconds: options.recentSeconds });
    // Only a full read that completed and read everything covers the history; one that failed, or read a full batch
    // (a backlog: an indexer catching up, a worker back from an outage), goes on at the next pass.
    if (full && !result.more)
      nextFullAt = startedAt + Math.max(options.fullEveryMs, (now() - startedAt) / options.fullReadShare);
    return result;
  };
}
