import { PriceFeedError } from "../priceFeed.js";
import type { PriceFeed } from "../priceFeed.js";
import type { PriceObservation } from "../priceObservation.js";
import { scaledPriceE18 } from "../pyth/scaledPriceE18.js";
import type { AggregatorRound, ReadAggregatorRound } from "./aggregatorRound.js";

/** Why a round is no price, or undefined when it is one. */
function roundDefect(round: AggregatorRound, nowMs: number): string | undefined {
  if (round.answer <= 0n) return `answer ${round.answer} is not positive`;
  if (round.updatedAt === 0n) return "round not complete (updatedAt 0)";
  // A round carried over from an earlier one is an old answer under a new id.
  if (round.answeredInRound < round.roundId) return `answered in round ${round.answeredInRound} < ${round.roundId}`;
  // A clock ahead of ours cannot vouch for freshness: the layer's max age would never expire it.
  if (Number(round.updatedAt) * 1000 > nowMs + 60_000) return `updatedAt ${round.updatedAt} is in the future`;
  return undefined;
}

/**
 * Chainlink-style aggregators as a price source: one `latestRoundData` (and `decimals`) per configured aggregator,
 * read concurrently. A round with a non-positive answer, an incomplete or carried-over round, or a timestamp ahead of
 * the wall clock is no answer; `updatedAt` is the observation time the layer judges freshness by. Only when every
 * aggregator asked fails to be read is the source failing (PriceFeedError), so one broken contract does not back off
 * the others.
 */
export function createAggregatorPriceFeed(options: {
  name?: string;
  /** Price key (symbol) → aggregator address. */
  aggregators: Readonly<Record<string, string>>;
  readRound: ReadAggregatorRound;
  /** At most one read of every aggregator per this period (the layer's own when absent). */
  refreshMs?: number;
  now?: () => number;
}): PriceFeed {
  const now = options.now ?? Date.now;
  const name = options.name ?? "aggregator";
  const addresses = new Map(Object.entries(options.aggregators).map(([key, a]) => [key.toUpperCase(), a]));
  return {
    name,
    keys: new Set(addresses.keys()),
    ...(options.refreshMs !== undefined ? { refreshMs: options.refreshMs } : {}),
    async fetch(keys, signal) {
      const wanted = [...new Set(keys)].filter((key) => addresses.has(key));
      const answers = new Map<string, PriceObservation>();
      const settled = await Promise.allSettled(wanted.map((key) => options.readRound(addresses.get(key)!, signal)));
      const errors: string[] = [];
      settled.forEach((result, index) => {
        const key = wanted[index]!;
        if (result.status === "rejected") {
          errors.push(`${key}: ${result.reason instanceof Error ? result.reason.message : String(result.reason)}`);
          return;
        }
        const round = result.value;
        if (roundDefect(round, now()) !== undefined) return;
        answers.set(key, {
          priceE18: scaledPriceE18(round.answer, -round.decimals),
          observedAt: Number(round.updatedAt) * 1000,
          source: name,
        });
      });
      if (wanted.length > 0 && errors.length === wanted.length) {
        throw new PriceFeedError(`no aggregator could be read (${errors.join("; ")})`);
      }
      return answers;
    },
  };
}
