import { RateLimitedError, TransientError } from "../../domain/errors.js";
import type { RateLimitOutcome, RateLimitPolicy, RateLimiter } from "./rateLimiter.js";

export type RateLimitDeps = { limiter: RateLimiter; now: () => Date; trustForwardedFor: boolean };

/** Counts one call against the policy; the counters' store (Redis, Postgres) being down is a 503, retryable. */
export async function countCall(
  deps: Pick<RateLimitDeps, "limiter">,
  policy: RateLimitPolicy,
  now: Date,
): Promise<RateLimitOutcome> {
  try {
    return await deps.limiter.hit(policy, now.getTime());
  } catch (error) {
    throw new TransientError("SERVICE_UNAVAILABLE", "rate limit counters are unavailable; retry shortly", error);
  }
}

/**
 * Counts the call against each policy in order and stops at the first one exceeded (RateLimitedError); answers
 * the outcome of the policy closest to its limit.
 */
export async function hitRateLimits(
  deps: RateLimitDeps,
  policies: RateLimitPolicy[],
): Promise<RateLimitOutcome | undefined> {
  let tightest: RateLimitOutcome | undefined;
  for (const policy of policies) {
    const outcome = await countCall(deps, policy, deps.now());
    if (!outcome.allowed) {
      throw new RateLimitedError(
        `rate limit of ${policy.limit} requests per ${policy.windowSeconds} s exceeded; retry after ${outcome.resetSeconds} s`,
        {
          retryAfterSeconds: outcome.resetSeconds,
          limit: policy.limit,
          windowSeconds: policy.windowSeconds,
          policy: policy.name,
        },
      );
    }
    if (!tightest || outcome.remaining < tightest.remaining) tightest = outcome;
  }
  return tightest;
}
