/** The V2_THROTTLE_SCHEDULE setting's form and parser, owned by config (src/config.ts). */

/**
 * From each date on (sorted), the share of a caller's normal v2 limit it keeps, in percent: every tier is
 * lowered month by month. Before the first entry v2 keeps its normal limits.
 */
export type ThrottleSchedule = ReadonlyArray<{ from: Date; percent: number }>;

/** "2026-09-01=75%,2026-10-01=50%" → a schedule; throws naming the bad entry. */
export function parseThrottleSchedule(text: string): ThrottleSchedule {
  const entries = text
    .split(",")
    .filter((entry) => entry.trim() !== "")
    .map((entry) => {
      const match = /^\s*(\d{4}-\d{2}-\d{2})\s*=\s*(\d{1,3})\s*%\s*$/.exec(entry);
      const from = match ? new Date(`${match[1]}T00:00:00Z`) : undefined;
      const percent = match ? Number(match[2]) : Number.NaN;
      if (!match || !from || Number.isNaN(from.getTime()) || percent < 1 || percent > 100) {
        throw new Error(
          `bad throttle entry "${entry}"; expected YYYY-MM-DD=<1 to 100>% (the share of each caller's normal limit)`,
        );
      }
      return { from, percent };
    });
  return entries.sort((a, b) => a.from.getTime() - b.from.getTime());
}
