import { describe, expect, it } from "vitest";
import { createDevnetPriceBook } from "./devnetPriceBook.js";
import { DEVNET_PRICE_FEEDS } from "./devnetPriceFeeds.js";
import { hermesApp } from "./hermesApp.js";

const ETH_ID = DEVNET_PRICE_FEEDS[0].id;

describe("hermesApp (the devnet's Hermes)", () => {
  const clock = { now: 1_800_000_000_000 };
  const book = createDevnetPriceBook(() => clock.now);
  const app = hermesApp(book);
  const latest = async (...ids: string[]) =>
    app.request(`/v2/updates/price/latest?${ids.map((id) => `ids[]=${id}`).join("&")}&parsed=true`);
  const post = (path: string, body: unknown) =>
    app.request(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

  it("answers Hermes' shapes for the real feed ids, with or without 0x", async () => {
    const response = await latest(`0x${ETH_ID}`, DEVNET_PRICE_FEEDS[1].id);
    expect(response.status).toBe(200);
    const body = (await response.json()) as any;
    expect(body.binary).toEqual({ encoding: "hex", data: [] });
    expect(body.parsed[0]).toMatchObject({
      id: ETH_ID,
      price: { price: "300000000000", conf: "30000000", expo: -8, publish_time: 1_800_000_000 },
    });
    expect(body.parsed[1].price.price).toBe("6000000000000");
    expect((await latest("ab".repeat(32))).status).toBe(404);
  });

  it("sets a price, freezes a feed (its publish time stops while others walk), and refuses bad control bodies", async () => {
    expect((await post("/devnet/price", { symbol: "eth", usd: 3512.5 })).status).toBe(200);
    expect(book.feed("ETH")!.price).toBe(351250000000n);
    expect((await post("/devnet/freeze", { symbol: "ETH", frozen: true })).status).toBe(200);
    clock.now += 5_000;
    book.walk(5);
    expect(book.feed("ETH")!.publishTime).toBe(1_800_000_000);
    expect(book.feed("BTC")!.publishTime).toBe(1_800_000_005);
    // The walk moves at most 5 bps a tick.
    const btc = book.feed("BTC")!.price;
    expect(btc >= 5_997_000_000_000n && btc <= 6_003_000_000_000n).toBe(true);
    // Setting a frozen feed's price keeps it frozen (stale); unfreezing publishes it now.
    await post("/devnet/price", { symbol: "ETH", usd: 3600 });
    expect(book.feed("ETH")!.publishTime).toBe(1_800_000_000);
    await post("/devnet/freeze", { symbol: "ETH", frozen: false });
    expect(book.feed("ETH")!.publishTime).toBe(1_800_000_005);
    expect((await post("/devnet/price", { symbol: "ETH", usd: "3600" })).status).toBe(400);
    expect((await post("/devnet/price", { symbol: "ETH", usd: -1 })).status).toBe(400);
    expect((await post("/devnet/price", { symbol: "DOGE", usd: 1 })).status).toBe(404);
    expect((await post("/devnet/freeze", { symbol: "ETH" })).status).toBe(400);
  });
});
