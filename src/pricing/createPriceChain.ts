import { InvalidInputError, TransientError } from "../domain/errors.js";
import { type PriceFeed, PriceFeedError } from "./priceFeed.js";
import type { PriceObservation } from "./priceObservation.js";

export type PriceChainOptions = {
  /** The sources in order of preference: the first fresh answer wins. */
  feeds: readonly PriceFeed[];
  /** How old (since the source observed it) a price of this key may be and still be quoted with. */
  maxAgeMs: (key: string) => number;
  /** Primary against the next fresh source: more apart than this (basis points of the latter) is suspect. */
  deviationBps: bigint;
  /** A source's round trip is abandoned after this long (and counts as a failure). */
  timeoutMs: number;
  /**
   * A source is read at most once per this period (or its own `refreshMs`): a cached price older than this is
   * refreshed in the background.
   */
  refreshMs: number;
  /** After a failure a source is left alone for baseMs, doubling with each failure in a row up to maxMs. */
  backoff: { baseMs: number; maxMs: number };
  now?: () => number;
};

/** What one source holds: the last good answer per key, and when it may and must be read again. */
type FeedState = {
  feed: PriceFeed;
  cache: Map<string, PriceObservation>;
  fetchedAt: number | undefined;
  inflight: Promise<void> | undefined;
  failures: number;
  retryAt: number;
  lastError: string | undefined;
};

export type PriceChain = {
  /** The prices of `keys`, one fresh observation each, in order; UNSUPPORTED_CURRENCY or PRICE_FETCH_FAILED else. */
  prices(keys: readonly string[]): Promise<PriceObservation[]>;
  /** Whether any source prices the key at all. */
  supports(key: string): boolean;
};

/**
 * The price layer: ordered sources, each read for all its keys in one round trip shared by every caller waiting on it
 * (single-flight), its last good answers cached and served while they are fresh (a quote never waits on the network
 * then; a refresh runs behind it once per `refreshMs`), with a timeout and backoff per source. A key's price is the
 * first source's fresh one; when a later source has a fresh one too and the two are further apart than
 * `deviationBps`, the price is suspect and refused (PRICE_FETCH_FAILED): a manipulated or broken source cannot move
 * a quote alone. No fresh price at all is PRICE_FETCH_FAILED (503, retryable); a key no source prices is
 * UNSUPPORTED_CURRENCY (400).
 */
export function createPriceChain(options: PriceChainOptions): PriceChain {
  const now = options.now ?? Date.now;
  const states: FeedState[] = options.feeds.map((feed) => ({
    feed,
    cache: new Map(),
    fetchedAt: undefined,
    inflight: undefined,
    failures: 0,
    retryAt: 0,
    lastError: undefined,
  }));

  const fresh = (state: FeedState, key: string, at: number): PriceObservation | undefined => {
    const observation = state.cache.get(key);
    return observation && at - observation.observedAt <= options.maxAgeMs(key) ? observation : undefined;
  };
  const due = (state: FeedState, at: number) =>
    !state.inflight &&
    at >= state.retryAt &&
    (state.fetchedAt === undefined || at - state.fetchedAt >= (state.feed.refreshMs ?? options.refreshMs));

  function refresh(state: FeedState): Promise<void> {
    if (state.inflight) return state.inflight;
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new PriceFeedError(`no answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    const work = async () => {
      try {
        const answers = await Promise.race([
          state.feed.fetch([...state.feed.keys], controller.signal),
          new Promise<never>((_, reject) =>
            controller.signal.addEventListener("abort", () => reject(controller.signal.reason), { once: true }),
          ),
        ]);
        for (const [key, observation] of answers) {
          const kept = state.cache.get(key);
          // Zero or negative is no price; an older observation never replaces a newer one.
          if (observation.priceE18 <= 0n || !state.feed.keys.has(key)) continue;
          if (!kept || observation.observedAt >= kept.observedAt) state.cache.set(key, observation);
        }
        state.failures = 0;
        state.retryAt = 0;
        state.lastError = undefined;
      } catch (error) {
        state.failures += 1;
        const backoff = Math.min(options.backoff.maxMs, options.backoff.baseMs * 2 ** (state.failures - 1));
        const asked = error instanceof PriceFeedError ? (error.retryAfterMs ?? 0) : 0;
        state.retryAt = now() + Math.max(backoff, asked);
        state.lastError = (error as Error).message;
      } finally {
        clearTimeout(timer);
        state.fetchedAt = now();
        state.inflight = undefined;
      }
    };
    state.inflight = work();
    return state.inflight;
  }

  function decide(key: string, at: number): PriceObservation {
    const answers = states
      .filter((state) => state.feed.keys.has(key))
      .map((state) => fresh(state, key, at))
      .filter((observation): observation is PriceObservation => observation !== undefined);
    const [first, second] = answers;
    if (!first) {
      const why = states
        .filter((state) => state.feed.keys.has(key))
        .map((state) => `${state.feed.name}: ${state.lastError ?? (state.cache.has(key) ? "stale" : "no answer")}`)
        .join("; ");
      throw new TransientError("PRICE_FETCH_FAILED", `no fresh price of ${key} (${why}); retry`, undefined, {
        currency: key,
      });
    }
    if (second) {
      const apart =
        first.priceE18 > second.priceE18 ? first.priceE18 - second.priceE18 : second.priceE18 - first.priceE18;
      if (apart * 10_000n > options.deviationBps * second.priceE18) {
        throw new TransientError(
          "PRICE_FETCH_FAILED",
          `the price of ${key} is suspect: ${first.source} and ${second.source} are ${(apart * 10_000n) / second.priceE18} bps apart (at most ${options.deviationBps}); retry`,
          undefined,
          { currency: key },
        );
      }
    }
    return first;
  }

  return {
    supports: (key) => states.some((state) => state.feed.keys.has(key)),
    async prices(keys) {
      const unsupported = keys.filter((key) => !states.some((state) => state.feed.keys.has(key)));
      if (unsupported.length > 0) {
        throw new InvalidInputError(
          "UNSUPPORTED_CURRENCY",
          `no price source prices ${[...new Set(unsupported)].join(", ")}`,
        );
      }
      const at = now();
      const waits: Promise<void>[] = [];
      for (const state of states) {
        const lacking = keys.some((key) => state.feed.keys.has(key) && !fresh(state, key, at));
        // A source without a fresh answer is waited for (joining a round trip under way); one with fresh answers is
        // refreshed behind the caller, at most once per period.
        if (lacking && (state.inflight || due(state, at))) waits.push(refresh(state));
        else if (due(state, at) && keys.some((key) => state.feed.keys.has(key))) void refresh(state);
      }
      if (waits.length > 0) await Promise.all(waits);
      const decidedAt = waits.length > 0 ? now() : at;
      return keys.map((key) => decide(key, decidedAt));
    },
  };
}
