import { describe, expect, it } from "vitest";
import { type PriceChainOptions, createPriceChain } from "./createPriceChain.js";
import { type PriceFeed, PriceFeedError } from "./priceFeed.js";
import type { PriceObservation } from "./priceObservation.js";

const E18 = 10n ** 18n;
const usd = (value: number) => BigInt(value) * E18;

/** A source under the test's control: its prices, their observation time, and whether it answers at all. */
function fakeFeed(name: string, prices: Record<string, bigint>, clock: { now: number }) {
  const feed = {
    name,
    keys: new Set(Object.keys(prices)),
    prices: { ...prices },
    observedAt: undefined as number | undefined,
    fail: undefined as Error | undefined,
    hang: false,
    calls: [] as string[][],
    async fetch(keys: readonly string[], signal: AbortSignal): Promise<ReadonlyMap<string, PriceObservation>> {
      feed.calls.push([...keys]);
      if (feed.hang) await new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
      // One turn of the event loop, as a network answer would take: concurrent callers meet here.
      await new Promise((resolve) => setImmediate(resolve));
      if (feed.fail) throw feed.fail;
      const observedAt = feed.observedAt ?? clock.now;
      return new Map(keys.map((key) => [key, { priceE18: feed.prices[key], observedAt, source: name }]));
    },
  } satisfies PriceFeed & Record<string, unknown>;
  return feed;
}

function setup(feeds: (clock: { now: number }) => PriceFeed[], overrides: Partial<PriceChainOptions> = {}) {
  const clock = { now: 1_000_000 };
  const chain = createPriceChain({
    feeds: feeds(clock),
    maxAgeMs: (key) => (key === "USDC" ? 3_600_000 : 60_000),
    deviationBps: 100n,
    timeoutMs: 50,
    refreshMs: 1_000,
    backoff: { baseMs: 2_000, maxMs: 30_000 },
    now: () => clock.now,
    ...overrides,
  });
  return { clock, chain };
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "answered",
    (error: { errorCode?: string; status?: number }) => `${error.status} ${error.errorCode}`,
  );

describe("createPriceChain", () => {
  it("answers the primary's fresh price, with its source and observation time", async () => {
    let primary!: ReturnType<typeof fakeFeed>;
    const { chain, clock } = setup((clock) => [(primary = fakeFeed("pyth", { ETH: usd(3000), USDC: E18 }, clock))]);
    expect(await chain.prices(["ETH", "USDC"])).toEqual([
      { priceE18: usd(3000), observedAt: clock.now, source: "pyth" },
      { priceE18: E18, observedAt: clock.now, source: "pyth" },
    ]);
    expect(primary.calls).toEqual([["ETH", "USDC"]]);
  });

  it("batches: concurrent quotes share one round trip per source, and a fresh cache answers without one", async () => {
    let primary!: ReturnType<typeof fakeFeed>;
    const { chain, clock } = setup((clock) => [
      (primary = fakeFeed("pyth", { ETH: usd(3000), BTC: usd(60000) }, clock)),
    ]);
    await Promise.all([chain.prices(["ETH"]), chain.prices(["BTC"]), chain.prices(["ETH", "BTC"])]);
    expect(primary.calls).toHaveLength(1);
    clock.now += 500;
    await Promise.all(Array.from({ length: 100 }, () => chain.prices(["ETH", "BTC"])));
    expect(primary.calls).toHaveLength(1);
  });

  it("refreshes a fresh price behind the caller once per period: the quote answers from the cache at once", async () => {
    let primary!: ReturnType<typeof fakeFeed>;
    const { chain, clock } = setup((clock) => [(primary = fakeFeed("pyth", { ETH: usd(3000) }, clock))]);
    await chain.prices(["ETH"]);
    primary.prices.ETH = usd(3100);
    clock.now += 1_500;
    // Still fresh (1.5 s old): answered from the cache, a refresh started behind it.
    expect((await chain.prices(["ETH"]))[0].priceE18).toBe(usd(3000));
    expect((await chain.prices(["ETH"]))[0].priceE18).toBe(usd(3000));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await chain.prices(["ETH"]))[0].priceE18).toBe(usd(3100));
    expect(primary.calls).toHaveLength(2);
  });

  it("reads a source with a period of its own at most once per it, even while it has no fresh price", async () => {
    let primary!: ReturnType<typeof fakeFeed>;
    let rounds!: ReturnType<typeof fakeFeed>;
    const { chain, clock } = setup((clock) => [
      (primary = fakeFeed("pyth", { ETH: usd(3000) }, clock)),
      (rounds = Object.assign(fakeFeed("aggregator", { ETH: usd(3000) }, clock), { refreshMs: 10_000 })),
    ]);
    rounds.observedAt = clock.now - 61_000;
    for (let second = 0; second < 10; second += 1) {
      expect((await chain.prices(["ETH"]))[0].source).toBe("pyth");
      await new Promise((resolve) => setTimeout(resolve, 2));
      clock.now += 1_000;
    }
    expect(primary.calls).toHaveLength(10);
    expect(rounds.calls).toHaveLength(1);
    // Its period over, it is read again: its new round, 3 % away, makes the price suspect.
    rounds.observedAt = undefined;
    rounds.prices.ETH = usd(3100);
    expect(await codeOf(chain.prices(["ETH"]))).toBe("503 PRICE_FETCH_FAILED");
    expect(rounds.calls).toHaveLength(2);
  });

  it("attack: a stale primary (its feed frozen) is never quoted; the secondary answers; nothing fresh is 503", async () => {
    let primary!: ReturnType<typeof fakeFeed>;
    let secondary!: ReturnType<typeof fakeFeed>;
    const { chain, clock } = setup((clock) => [
      (primary = fakeFeed("pyth", { ETH: usd(3000) }, clock)),
      (secondary = fakeFeed("chainlink", { ETH: usd(3010) }, clock)),
    ]);
    primary.observedAt = clock.now - 61_000;
    expect((await chain.prices(["ETH"]))[0]).toMatchObject({ priceE18: usd(3010), source: "chainlink" });
    // Both frozen: their last answers age past a minute.
    primary.observedAt = secondary.observedAt = clock.now;
    clock.now += 61_000;
    expect(await codeOf(chain.prices(["ETH"]))).toBe("503 PRICE_FETCH_FAILED");
    // Recovery: the primary publishes again.
    primary.observedAt = undefined;
    clock.now += 1_000;
    expect((await chain.prices(["ETH"]))[0]).toMatchObject({ priceE18: usd(3000), source: "pyth" });
  });

  it("a price goes stale in the cache by its own maximum age (per currency), without a new answer", async () => {
    let primary!: ReturnType<typeof fakeFeed>;
    const { chain, clock } = setup((clock) => [(primary = fakeFeed("pyth", { ETH: usd(3000), USDC: E18 }, clock))]);
    await chain.prices(["ETH", "USDC"]);
    primary.fail = new Error("connect ECONNREFUSED");
    clock.now += 59_000;
    expect((await chain.prices(["ETH"]))[0].priceE18).toBe(usd(3000));
    clock.now += 2_000;
    expect(await codeOf(chain.prices(["ETH"]))).toBe("503 PRICE_FETCH_FAILED");
    // USDC keeps its hour.
    expect((await chain.prices(["USDC"]))[0].priceE18).toBe(E18);
  });

  it("attack: a manipulated secondary beyond the deviation makes the price suspect, and it is refused", async () => {
    let secondary!: ReturnType<typeof fakeFeed>;
    const { chain, clock } = setup((clock) => [
      fakeFeed("pyth", { ETH: usd(3000) }, clock),
      (secondary = fakeFeed("chainlink", { ETH: usd(3029) }, clock)),
    ]);
    // 29 / 3029 = 95 bps: within 100.
    expect((await chain.prices(["ETH"]))[0].source).toBe("pyth");
    secondary.prices.ETH = usd(3100);
    clock.now += 1_000;
    await chain.prices(["ETH"]).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const refused = await chain.prices(["ETH"]).catch((error: Error) => error);
    expect(refused).toMatchObject({ errorCode: "PRICE_FETCH_FAILED", status: 503, retryable: true });
    expect((refused as Error).message).toMatch(/ETH is suspect: pyth and chainlink are 322 bps apart/);
  });

  it("attack: a manipulated primary is refused the same way when the secondary is fresh", async () => {
    const { chain } = setup((clock) => [
      fakeFeed("pyth", { ETH: usd(1) }, clock),
      fakeFeed("chainlink", { ETH: usd(3000) }, clock),
    ]);
    expect(await codeOf(chain.prices(["ETH"]))).toBe("503 PRICE_FETCH_FAILED");
  });

  it("refuses zero and negative answers as no price", async () => {
    let primary!: ReturnType<typeof fakeFeed>;
    const { chain } = setup((clock) => [(primary = fakeFeed("pyth", { ETH: 0n, BTC: -5n }, clock))]);
    expect(await codeOf(chain.prices(["ETH"]))).toBe("503 PRICE_FETCH_FAILED");
    expect(await codeOf(chain.prices(["BTC"]))).toBe("503 PRICE_FETCH_FAILED");
    expect(primary.calls).toHaveLength(1);
  });

  it("a currency no source prices is 400 UNSUPPORTED_CURRENCY, before any round trip", async () => {
    let primary!: ReturnType<typeof fakeFeed>;
    const { chain } = setup((clock) => [(primary = fakeFeed("pyth", { ETH: usd(3000) }, clock))]);
    expect(await codeOf(chain.prices(["ETH", "DOGE"]))).toBe("400 UNSUPPORTED_CURRENCY");
    expect(primary.calls).toHaveLength(0);
    expect(chain.supports("ETH")).toBe(true);
    expect(chain.supports("DOGE")).toBe(false);
  });

  it("times a hanging source out, then backs off (doubling) without asking it, the secondary answering meanwhile", async () => {
    let primary!: ReturnType<typeof fakeFeed>;
    const { chain, clock } = setup((clock) => [
      (primary = fakeFeed("pyth", { ETH: usd(3000) }, clock)),
      fakeFeed("chainlink", { ETH: usd(3001) }, clock),
    ]);
    primary.hang = true;
    const started = Date.now();
    expect((await chain.prices(["ETH"]))[0].source).toBe("chainlink");
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(primary.calls).toHaveLength(1);
    clock.now += 1_500;
    await chain.prices(["ETH"]);
    expect(primary.calls).toHaveLength(1);
    clock.now += 1_000;
    await chain.prices(["ETH"]);
    expect(primary.calls).toHaveLength(2);
    // Second failure in a row: 4 s.
    clock.now += 3_000;
    await chain.prices(["ETH"]);
    expect(primary.calls).toHaveLength(2);
    primary.hang = false;
    clock.now += 1_500;
    await chain.prices(["ETH"]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(primary.calls).toHaveLength(3);
    expect((await chain.prices(["ETH"]))[0].source).toBe("pyth");
  });

  it("honours a source's Retry-After (HTTP 429) over its own backoff", async () => {
    let primary!: ReturnType<typeof fakeFeed>;
    const { chain, clock } = setup((clock) => [(primary = fakeFeed("pyth", { ETH: usd(3000) }, clock))]);
    primary.fail = new PriceFeedError("429 Too Many Requests", 10_000);
    expect(await codeOf(chain.prices(["ETH"]))).toBe("503 PRICE_FETCH_FAILED");
    primary.fail = undefined;
    clock.now += 9_000;
    expect(await codeOf(chain.prices(["ETH"]))).toBe("503 PRICE_FETCH_FAILED");
    expect(primary.calls).toHaveLength(1);
    clock.now += 1_000;
    expect((await chain.prices(["ETH"]))[0].priceE18).toBe(usd(3000));
  });

  it("says why a price is missing: each source's last error or staleness", async () => {
    let primary!: ReturnType<typeof fakeFeed>;
    let secondary!: ReturnType<typeof fakeFeed>;
    const { chain, clock } = setup((clock) => [
      (primary = fakeFeed("pyth", { ETH: usd(3000) }, clock)),
      (secondary = fakeFeed("chainlink", { ETH: usd(3000) }, clock)),
    ]);
    primary.fail = new Error("connect ECONNREFUSED 127.0.0.1:1");
    secondary.observedAt = clock.now - 120_000;
    await expect(chain.prices(["ETH"])).rejects.toThrow(
      "no fresh price of ETH (pyth: connect ECONNREFUSED 127.0.0.1:1; chainlink: stale); retry",
    );
  });
});
