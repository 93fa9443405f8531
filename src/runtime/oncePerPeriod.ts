/**
 * For an outcome that repeats (a price feed down answers every quote with a 503): `shouldReport(key)` is the number
 * of times the key was passed over since it was last reported (0 the first time) when it is due again, at most once
 * per `periodMs` per key; undefined while it is not. At most `maxKeys` keys are remembered (the oldest forgotten
 * first), so keys taken from requests cannot grow it without bound.
 */
export function oncePerPeriod(options: { periodMs: number; maxKeys?: number; now?: () => number }) {
  const now = options.now ?? Date.now;
  const maxKeys = options.maxKeys ?? 1_000;
  // Insertion order is report order: a key is re-inserted each time it is reported.
  const keys = new Map<string, { reportedAt: number; skipped: number }>();
  return function shouldReport(key: string): number | undefined {
    const at = now();
    const seen = keys.get(key);
    if (seen && at - seen.reportedAt < options.periodMs) {
      seen.skipped += 1;
      return undefined;
    }
    keys.delete(key);
    keys.set(key, { reportedAt: at, skipped: 0 });
    if (keys.size > maxKeys) keys.delete(keys.keys().next().value!);
    return seen?.skipped ?? 0;
  };
}
