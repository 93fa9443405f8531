/** The RATE_LIMITS setting's form and parser, owned by config (src/config.ts); the gateway applies it to its routes. */

/** Requests per window for the three caller tiers (no key, key, elevated key), or "off": the route is not counted. */
export type RateLimitOverride = { anonymous: number; standard: number; elevated: number } | "off";
export type RateLimitOverrides = Readonly<Record<string, RateLimitOverride>>;

/**
 * "quote=5/20/50,status=off" → per route-limit name, its three tiers (no key / key / elevated key, requests per the
 * route's window) or off; throws naming the bad entry. Names are checked against the gateway's routes when applied.
 */
export function parseRateLimitOverrides(text: string): RateLimitOverrides {
  const overrides: Record<string, RateLimitOverride> = {};
  for (const entry of text.split(",")) {
    if (entry.trim() === "") continue;
    const match = /^\s*([a-z][a-z0-9-]*)\s*=\s*(?:(off)|(\d{1,9})\/(\d{1,9})\/(\d{1,9}))\s*$/.exec(entry);
    if (!match)
      throw new Error(
        `bad rate limit entry "${entry}"; expected <route>=<no key>/<key>/<elevated key> (requests per window) or <route>=off`,
      );
    const [, name, off, anonymous, standard, elevated] = match;
    if (name in overrides) throw new Error(`rate limit of "${name}" is given twice`);
    overrides[name] = off
      ? "off"
      : { anonymous: Number(anonymous), standard: Number(standard), elevated: Number(elevated) };
  }
  return overrides;
}
