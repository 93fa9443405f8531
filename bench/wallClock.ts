import { performance } from "node:perf_hooks";

/**
 * Wall-clock milliseconds since the epoch with sub-millisecond resolution: the process's start time on the
 * system clock plus the monotonic clock since. Comparable with Postgres `now()` on the same machine (both
 * come from the system's realtime clock); `Date.now()` would round to whole milliseconds.
 */
export function wallClockMs(): number {
  return performance.timeOrigin + performance.now();
}
