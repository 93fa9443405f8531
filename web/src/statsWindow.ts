export type StatsPreset = "24h" | "7d" | "30d" | "90d" | "custom";

export type StatsWindow = { from: Date; to: Date; groupBy: "HOUR" | "DAY" };

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const PRESET_MS: Record<Exclude<StatsPreset, "custom">, number> = {
  "24h": DAY_MS,
  "7d": 7 * DAY_MS,
  "30d": 30 * DAY_MS,
  "90d": 90 * DAY_MS,
};
/** requestStats answers at most 366 days; hourly buckets are used up to two days (at most 48 bars). */
const MAX_DAYS = 366;
const HOURLY_UP_TO_MS = 2 * DAY_MS;

/**
 * The analytics window of a preset (ending now, to the next whole minute so a refresh a second later reads the
 * same window) or of custom `date` inputs (from the start of the first day to the end of the last, UTC); undefined
 * when the custom dates are missing, reversed, or span more than requestStats takes.
 */
export function statsWindow(
  preset: StatsPreset,
  custom: { from: string; to: string },
  now = Date.now(),
): StatsWindow | undefined {
  let from: number;
  let to: number;
  if (preset === "custom") {
    from = Date.parse(`${custom.from}T00:00:00Z`);
    to = Date.parse(`${custom.to}T00:00:00Z`) + DAY_MS;
    if (Number.isNaN(from) || Number.isNaN(to) || to <= from || to - from > MAX_DAYS * DAY_MS) return undefined;
  } else {
    to = Math.ceil(now / 60_000) * 60_000;
    from = to - PRESET_MS[preset];
  }
  return { from: new Date(from), to: new Date(to), groupBy: to - from <= HOURLY_UP_TO_MS ? "HOUR" : "DAY" };
}
