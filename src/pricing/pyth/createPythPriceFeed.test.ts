import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEVNET_FEED_IDS } from "../../../devnet/prices/devnetPriceFeeds.js";
import { type DevnetHermes, startDevnetHermes } from "../../../devnet/prices/startDevnetHermes.js";
import { PriceFeedError } from "../priceFeed.js";
import { createPythPriceFeed } from "./createPythPriceFeed.js";

const E18 = 10n ** 18n;
const signal = () => new AbortController().signal;

/** A Hermes stand-in answering whatever the test sets: a status, headers, a body. */
function cannedHermes() {
  const canned = { status: 200, headers: {} as Record<string, string>, body: "{}" as string, paths: [] as string[] };
  const server = createServer((request, response) => {
    canned.paths.push(request.url ?? "");
    response.writeHead(canned.status, { "content-type": "application/json", ...canned.headers });
    response.end(canned.body);
  });
  return { canned, server };
}

const feedJson = (id: string, price: string, conf: string, expo: number, publishTime: number) => ({
  id,
  price: { price, conf, expo, publish_time: publishTime },
  ema_price: { price, conf, expo, publish_time: publishTime },
});

describe("createPythPriceFeed", () => {
  let hermes: DevnetHermes;
  const { canned, server } = cannedHermes();
  let cannedUrl: string;
  beforeAll(async () => {
    hermes = await startDevnetHermes({ walkBps: 0 });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cannedUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await hermes.stop();
    await new Promise((resolve) => server.close(resolve));
  });

  it("reads every configured feed of the devnet's Hermes in one request, WETH priced by ETH's feed", async () => {
    const feed = createPythPriceFeed({ hermesUrl: hermes.hermesUrl, feedIds: DEVNET_FEED_IDS, maxConfidenceBps: 200n });
    expect([...feed.keys].sort()).toEqual(["BTC", "ETH", "HYPE", "SOL", "TON", "USDC", "WETH"]);
    hermes.book.set("ETH", "3012.34567891");
    const answers = await feed.fetch(["ETH", "WETH", "USDC"], signal());
    expect(answers.get("ETH")).toEqual({
      priceE18: 301234567891n * 10n ** 10n,
      observedAt: hermes.book.feed("ETH")!.publishTime * 1000,
      source: "pyth",
    });
    expect(answers.get("WETH")).toEqual(answers.get("ETH"));
    expect(answers.get("USDC")?.priceE18).toBe(E18);
    expect(answers.has("BTC")).toBe(false);
  });

  it("scales other exponents, and refuses zero, negative and too uncertain prices", async () => {
    const ids = { A: "a".repeat(64), B: "b".repeat(64), C: "c".repeat(64), D: "d".repeat(64), E: "e".repeat(64) };
    canned.status = 200;
    canned.body = JSON.stringify({
      binary: { encoding: "hex", data: [] },
      parsed: [
        feedJson(ids.A, "99995", "1", -5, 1_700_000_000),
        feedJson(ids.B, "0", "0", -8, 1_700_000_000),
        feedJson(ids.C, "-100000000", "0", -8, 1_700_000_000),
        // A confidence interval of 3 % of the price: beyond 200 bps.
        feedJson(ids.D, "100000000", "3000000", -8, 1_700_000_000),
        feedJson(ids.E, "3000", "0", 0, 1_700_000_000),
      ],
    });
    const feed = createPythPriceFeed({ hermesUrl: cannedUrl, feedIds: ids, maxConfidenceBps: 200n });
    const answers = await feed.fetch(Object.keys(ids), signal());
    expect(Object.fromEntries([...answers].map(([key, value]) => [key, value.priceE18]))).toEqual({
      A: 999950000000000000n,
      E: 3000n * E18,
    });
    expect(answers.get("A")?.observedAt).toBe(1_700_000_000_000);
    expect(canned.paths.at(-1)).toMatch(/^\/v2\/updates\/price\/latest\?ids\[\]=a{64}&ids\[\]=b{64}&.*&parsed=true$/);
  });

  it("a 429 is a PriceFeedError with its Retry-After; other errors and malformed answers throw", async () => {
    const feed = createPythPriceFeed({
      hermesUrl: cannedUrl,
      feedIds: { ETH: "f".repeat(64) },
      maxConfidenceBps: 200n,
    });
    canned.status = 429;
    canned.headers = { "retry-after": "7" };
    canned.body = "Too Many Requests";
    const limited = await feed.fetch(["ETH"], signal()).catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(PriceFeedError);
    expect((limited as PriceFeedError).retryAfterMs).toBe(7_000);
    canned.status = 200;
    canned.headers = {};
    canned.body = JSON.stringify({ parsed: [{ id: "f".repeat(64), price: { price: 3.5, expo: -8 } }] });
    await expect(feed.fetch(["ETH"], signal())).rejects.toThrow(/malformed/);
    // The devnet Hermes, like Hermes, answers 404 for an id it does not know.
    const unknown = createPythPriceFeed({
      hermesUrl: hermes.hermesUrl,
      feedIds: { XYZ: "1".repeat(64) },
      maxConfidenceBps: 200n,
    });
    await expect(unknown.fetch(["XYZ"], signal())).rejects.toThrow(/Hermes answered 404: Price ids not found/);
  });
});
