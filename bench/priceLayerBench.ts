/**
 * The price layer's cost (issue 26): two gateways on one test stack, one priced from the static table, one from Pyth
 * over the devnet's Hermes (its default settings: 60 s age, 1 s period), alternated in rounds of closed-loop quote
 * load; quotes/s and p50 of each, and Hermes requests per 1,000 quotes. `npx tsx bench/priceLayerBench.ts
 * [rounds=4] [roundMs=5000] [concurrency=16]`.
 */
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createDevnetPriceBook } from "../devnet/prices/devnetPriceBook.js";
import { DEVNET_FEED_IDS } from "../devnet/prices/devnetPriceFeeds.js";
import { hermesApp } from "../devnet/prices/hermesApp.js";
import { parseConfig } from "../src/config.js";
import { createStatusBus } from "../src/events/createStatusBus.js";
import { createConfiguredPriceSource } from "../src/pricing/createConfiguredPriceSource.js";
import { priceSettingsWith } from "../src/rolePrices.js";
import { startTestStack } from "../test/support/startTestStack.js";
import { summarize } from "./percentiles.js";
import { quoteBody } from "./quoteBodies.js";
import { startStackApi } from "./startStackApi.js";

const [rounds = 4, roundMs = 5_000, concurrency = 16] = process.argv.slice(2).map(Number);

const book = createDevnetPriceBook();
const app = hermesApp(book);
let hermesRequests = 0;
const hermes = serve({
  fetch: (request) => {
    hermesRequests += 1;
    return app.fetch(request);
  },
  hostname: "127.0.0.1",
  port: 0,
});
await new Promise((resolve) => hermes.once("listening", resolve));
const walk = setInterval(() => book.walk(5), 1_000);
const hermesUrl = `http://127.0.0.1:${(hermes.address() as AddressInfo).port}`;

const stack = await startTestStack({ pipeline: false });
const bus = createStatusBus();
const pyth = createConfiguredPriceSource(
  priceSettingsWith(parseConfig({}), [{ kind: "pyth", hermesUrl, feedIds: DEVNET_FEED_IDS, maxConfidenceBps: 200n }]),
);
const gateways = { static: await startStackApi(stack, bus), pyth: await startStackApi(stack, bus, { prices: pyth }) };
const [origin, destination] = stack.devnet.chains;
const user = stack.devnet.accounts[0].address;
const bodies = (["nativeBridge", "erc20Bridge", "swap"] as const).map((kind) =>
  JSON.stringify(quoteBody(kind, origin, destination, user)),
);

async function round(url: string) {
  const latencies: number[] = [];
  let errors = 0;
  const end = Date.now() + roundMs;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, client) => {
      for (let i = client; Date.now() < end; i += 1) {
        const started = performance.now();
        const response = await fetch(`${url}/quote/v2`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: bodies[i % bodies.length],
        });
        await response.arrayBuffer();
        if (response.status !== 200) errors += 1;
        latencies.push(performance.now() - started);
      }
    }),
  );
  return {
    quotesPerSecond: (latencies.length * 1000) / roundMs,
    p50: summarize(latencies).p50,
    count: latencies.length,
    errors,
  };
}

const results: Record<string, { quotesPerSecond: number[]; p50: number[]; quotes: number; errors: number }> = {
  static: { quotesPerSecond: [], p50: [], quotes: 0, errors: 0 },
  pyth: { quotesPerSecond: [], p50: [], quotes: 0, errors: 0 },
};
await round(gateways.pyth.url);
await round(gateways.static.url);
const requestsBefore = hermesRequests;
for (let r = 0; r < rounds; r += 1) {
  for (const mode of r % 2 === 0 ? (["static", "pyth"] as const) : (["pyth", "static"] as const)) {
    const result = await round(gateways[mode].url);
    results[mode].quotesPerSecond.push(Math.round(result.quotesPerSecond));
    results[mode].p50.push(Number(result.p50.toFixed(2)));
    results[mode].quotes += result.count;
    results[mode].errors += result.errors;
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const summary = {
  rounds,
  roundMs,
  concurrency,
  static: { ...results.static, medianQuotesPerSecond: median(results.static.quotesPerSecond) },
  pyth: { ...results.pyth, medianQuotesPerSecond: median(results.pyth.quotesPerSecond) },
  costPercent: Number(
    (100 * (1 - median(results.pyth.quotesPerSecond) / median(results.static.quotesPerSecond))).toFixed(1),
  ),
  hermesRequestsPer1000Quotes: Number((((hermesRequests - requestsBefore) * 1000) / results.pyth.quotes).toFixed(2)),
};
process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
clearInterval(walk);
await gateways.static.close();
await gateways.pyth.close();
await bus.close();
await stack.stop();
hermes.close();
