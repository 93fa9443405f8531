import type { ThrottleSchedule } from "../throttleSchedule.js";

/** The v2 listing's retirement: dates from the spec, a monthly throttling schedule from configuration. */
export const V2_DEPRECATED_AT = new Date("2026-07-22T00:00:00Z");
export const V2_THROTTLED_FROM = new Date("2026-09-01T00:00:00Z");
export const V2_SUNSET_AT = new Date("2026-11-24T00:00:00Z");
export const V2_SUCCESSOR = "/requests/v3";
export const V2_MIGRATION_GUIDE = "/docs/api.md#migrating-from-get-requestsv2";

export const DEFAULT_V2_THROTTLE: ThrottleSchedule = [
  { from: new Date("2026-09-01T00:00:00Z"), percent: 75 },
  { from: new Date("2026-10-01T00:00:00Z"), percent: 50 },
  { from: new Date("2026-11-01T00:00:00Z"), percent: 25 },
];

/** The share (0–1] of the normal limit in force at `now`, or undefined before throttling starts. */
export function v2ThrottleShare(schedule: ThrottleSchedule, now: Date): number | undefined {
  let percent: number | undefined;
  for (const step of schedule) if (step.from.getTime() <= now.getTime()) percent = step.percent;
  return percent === undefined ? undefined : percent / 100;
}

export function v2IsSunset(now: Date): boolean {
  return now.getTime() >= V2_SUNSET_AT.getTime();
}

/** The headers every v2 response carries (2xx, 4xx, 5xx, 410). */
export function v2DeprecationHeaders(): Record<string, string> {
  return {
    Deprecation: `@${Math.floor(V2_DEPRECATED_AT.getTime() / 1000)}`,
    Sunset: V2_SUNSET_AT.toUTCString(),
    Link: `<${V2_MIGRATION_GUIDE}>; rel="deprecation"; type="text/markdown", <${V2_MIGRATION_GUIDE}>; rel="sunset"; type="text/markdown", <${V2_SUCCESSOR}>; rel="successor-version"`,
  };
}

/** The body's `deprecation` object. */
export function v2DeprecationNotice() {
  return {
    message: `GET /requests/v2 is deprecated since ${V2_DEPRECATED_AT.toISOString().slice(0, 10)}, throttled from ${V2_THROTTLED_FROM.toISOString().slice(0, 10)} and retired on ${V2_SUNSET_AT.toISOString().slice(0, 10)}; use GET /requests/v3`,
    deprecatedAt: V2_DEPRECATED_AT.toISOString(),
    throttledFrom: V2_THROTTLED_FROM.toISOString(),
    sunsetAt: V2_SUNSET_AT.toISOString(),
    successor: V2_SUCCESSOR,
    migrationGuide: V2_MIGRATION_GUIDE,
  };
}
