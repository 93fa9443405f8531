import { Hono } from "hono";
import { DEVNET_PRICE_EXPO, type DevnetFeed, type DevnetPriceBook } from "./devnetPriceBook.js";

/** A price as Hermes writes it (`price` and `conf` integer strings). */
const hermesPrice = (feed: DevnetFeed) => ({
  price: feed.price.toString(),
  conf: feed.conf.toString(),
  expo: DEVNET_PRICE_EXPO,
  publish_time: feed.publishTime,
});

/** A JSON body's `symbol`, or undefined. */
const symbolOf = (body: unknown) =>
  body !== null && typeof body === "object" && typeof (body as { symbol?: unknown }).symbol === "string"
    ? (body as { symbol: string }).symbol
    : undefined;

/**
 * The part of Pyth's Hermes the service reads, over the devnet's price book: `GET /v2/updates/price/latest?ids[]=…
 * &parsed=true` with Hermes' shapes (ids without 0x; `binary.data` is empty, the devnet signs no Wormhole update) and
 * its 404 for unknown ids; plus, only here, `POST /devnet/price {symbol, usd}` and `POST /devnet/freeze {symbol,
 * frozen}` for tests.
 */
export function hermesApp(book: DevnetPriceBook): Hono {
  const app = new Hono();
  app.get("/v2/updates/price/latest", (c) => {
    const ids = [...(c.req.queries("ids[]") ?? []), ...(c.req.queries("ids") ?? [])].map((id) =>
      id.toLowerCase().replace(/^0x/, ""),
    );
    if (ids.length === 0) return c.text("Missing query parameter ids[]", 400);
    const missing = ids.filter((id) => !book.feeds().some((feed) => feed.id === id));
    if (missing.length > 0) return c.text(`Price ids not found: ${missing.join(", ")}`, 404);
    const feeds = ids.map((id) => book.feeds().find((feed) => feed.id === id)!);
    return c.json({
      binary: { encoding: "hex", data: [] },
      parsed: feeds.map((feed) => ({
        id: feed.id,
        price: hermesPrice(feed),
        ema_price: hermesPrice(feed),
        metadata: { slot: null, proof_available_time: feed.publishTime, prev_publish_time: feed.publishTime },
      })),
    });
  });
  app.post("/devnet/price", async (c) => {
    const body: unknown = await c.req.json().catch(() => undefined);
    const usd = (body as { usd?: unknown } | undefined)?.usd;
    const symbol = symbolOf(body);
    if (!symbol || typeof usd !== "number" || !Number.isFinite(usd) || usd <= 0)
      return c.json({ message: "expected {symbol: string, usd: a positive number}" }, 400);
    // A test's number, read to the feed's 8 decimals.
    const feed = book.set(symbol, usd.toFixed(-DEVNET_PRICE_EXPO));
    if (!feed) return c.json({ message: `no devnet feed for ${symbol}` }, 404);
    return c.json({ symbol: feed.symbol, price: hermesPrice(feed), frozen: feed.frozen });
  });
  app.post("/devnet/freeze", async (c) => {
    const body: unknown = await c.req.json().catch(() => undefined);
    const frozen = (body as { frozen?: unknown } | undefined)?.frozen;
    const symbol = symbolOf(body);
    if (!symbol || typeof frozen !== "boolean")
      return c.json({ message: "expected {symbol: string, frozen: boolean}" }, 400);
    const feed = book.freeze(symbol, frozen);
    if (!feed) return c.json({ message: `no devnet feed for ${symbol}` }, 404);
    return c.json({ symbol: feed.symbol, price: hermesPrice(feed), frozen: feed.frozen });
  });
  return app;
}
