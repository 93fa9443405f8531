import { describe, expect, it } from "vitest";
import { PriceFeedError } from "../priceFeed.js";
import type { AggregatorRound } from "./aggregatorRound.js";
import { createAggregatorPriceFeed } from "./createAggregatorPriceFeed.js";

const NOW_MS = 1_700_000_000_000;
const NOW_S = BigInt(NOW_MS / 1000);
const signal = () => new AbortController().signal;
const round = (overrides: Partial<AggregatorRound> = {}): AggregatorRound => ({
  roundId: 5n,
  answer: 300_012_345_678n,
  updatedAt: NOW_S - 3n,
  answeredInRound: 5n,
  decimals: 8,
  ...overrides,
});

function feedOf(rounds: Record<string, AggregatorRound | Error>) {
  const reads: string[] = [];
  const feed = createAggregatorPriceFeed({
    aggregators: Object.fromEntries(Object.keys(rounds).map((key) => [key, `0x${key}`])),
    readRound: async (address) => {
      reads.push(address);
      const answer = rounds[address.slice(2)]!;
      if (answer instanceof Error) throw answer;
      return answer;
    },
    now: () => NOW_MS,
  });
  return { feed, reads };
}

describe("createAggregatorPriceFeed", () => {
  it("scales 8, 18 and 0 decimals to 1e18 and dates the price by updatedAt", async () => {
    const { feed, reads } = feedOf({
      ETH: round(),
      USDC: round({ answer: 999_950_000_000_000_000n, decimals: 18 }),
      BTC: round({ answer: 97_000n, decimals: 0 }),
    });
    const answers = await feed.fetch(["ETH", "USDC", "BTC"], signal());
    expect(answers.get("ETH")).toEqual({
      priceE18: 3_000_123_456_780_000_000_000n,
      observedAt: NOW_MS - 3_000,
      source: "aggregator",
    });
    expect(answers.get("USDC")?.priceE18).toBe(999_950_000_000_000_000n);
    expect(answers.get("BTC")?.priceE18).toBe(97_000n * 10n ** 18n);
    expect(reads.sort()).toEqual(["0xBTC", "0xETH", "0xUSDC"]);
  });

  it("attack: zero, negative, carried-over, incomplete and future-dated rounds are no price", async () => {
    const { feed } = feedOf({
      ZERO: round({ answer: 0n }),
      NEG: round({ answer: -1n }),
      CARRIED: round({ roundId: 7n, answeredInRound: 6n }),
      INCOMPLETE: round({ updatedAt: 0n }),
      FUTURE: round({ updatedAt: NOW_S + 3_600n }),
      GOOD: round(),
    });
    const answers = await feed.fetch(["ZERO", "NEG", "CARRIED", "INCOMPLETE", "FUTURE", "GOOD"], signal());
    expect([...answers.keys()]).toEqual(["GOOD"]);
  });

  it("asks only configured keys; one unreadable aggregator is no answer, all unreadable is a PriceFeedError", async () => {
    const { feed, reads } = feedOf({ ETH: round(), BTC: new Error("execution reverted") });
    expect([...feed.keys].sort()).toEqual(["BTC", "ETH"]);
    const answers = await feed.fetch(["ETH", "BTC", "SOL"], signal());
    expect([...answers.keys()]).toEqual(["ETH"]);
    expect(reads).not.toContain("0xSOL");
    const failing = await feed.fetch(["BTC"], signal()).catch((error: unknown) => error);
    expect(failing).toBeInstanceOf(PriceFeedError);
    expect((failing as Error).message).toMatch(/BTC: execution reverted/);
  });
});
