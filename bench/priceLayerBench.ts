/**
 * The price layer's cost (issue 26): three gateways on one test stack whose EVM devnet runs the aggregators fed by the
 * devnet Hermes (as npm start), one priced from the static table, one from Pyth alone, one from the production chain
 * Pyth → on-chain aggregators (deviation guard on), with the default settings (60 s age, 1 s refresh); alternated in
 * rounds of closed-loop `/quote/v2` load (the order rotates each round), the feeds walking every second. Per gateway:
 * quotes/s and p50 per round, the median over rounds of each round's cost against that round's static gateway, Hermes
 * requests and aggregator reads per 1,000 quotes. Writes bench/results/prices-<date>.json.
 * `npx tsx bench/priceLayerBench.ts [rounds=8] [roundMs=5000] [concurrency=16]`.
 */
import { readFileSync, readdirSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { devnetPriceSettings } from "../apps/devnetPriceSettings.js";
import { familyAdapters } from "../apps/families/familyAdapters.js";
import { hermesApp } from "../devnet/prices/hermesApp.js";
import { withDevnetPythFeeds } from "../devnet/prices/withDevnetPythFeeds.js";
import type { ChainAdapters } from "../src/chains/chainAdapters.js";
import { parseConfig } from "../src/config.js";
import { createStatusBus } from "../src/events/createStatusBus.js";
import { createConfiguredPriceSource } from "../src/pricing/createConfiguredPriceSource.js";
import type { PriceSettings } from "../src/pricing/priceSettings.js";
import { startTestStack } from "../test/support/startTestStack.js";
import { gitCommit, machineInfo } from "./machineInfo.js";
import { summarize } from "./percentiles.js";
import { cpuSnapshot } from "./processCpu.js";
import { measureRoundCpu } from "./quoteLimiterRounds.js";
import { quoteBody } from "./quoteBodies.js";
import { startStackApi } from "./startStackApi.js";
import type { Target } from "./target.js";
import { writeResult } from "./writeResult.js";

const [rounds = 8, roundMs = 5_000, concurrency = 16] = process.argv.slice(2).map(Number);
const MODES = ["static", "pyth", "live"] as const;
type Mode = (typeof MODES)[number];

const machine = machineInfo();
const commit = gitCommit();
const date = new Date();
// The devnet's Hermes and aggregators as npm start has them; its book walks here, 5 bps a second, as npm start's does.
const stack = await startTestStack({ pipeline: false, livePrices: {} });
const book = stack.hermes!.book;
const walk = setInterval(() => book.walk(5), 1_000);

// A second Hermes server over the same book, counting the requests the gateways send it.
let hermesRequests = 0;
const app = hermesApp(book);
const counted = serve({
  fetch: (request) => {
    hermesRequests += 1;
    return app.fetch(request);
  },
  hostname: "127.0.0.1",
  port: 0,
});
await new Promise((resolve) => counted.once("listening", resolve));
const hermesUrl = `http://127.0.0.1:${(counted.address() as AddressInfo).port}`;

// The aggregators are read through the EVM adapter's client, as the API role does; each read counted.
let aggregatorReads = 0;
const adapters = familyAdapters(stack.devnet.chains, { evm: { solver: stack.devnet.solver } }, { pool: stack.pool });
const countedAdapters: Pick<ChainAdapters, "quoterOf"> = {
  quoterOf(chainId) {
    const quoter = adapters.quoterOf(chainId);
    const read = quoter?.readAggregatorRound;
    if (!quoter || !read) return quoter;
    return {
      ...quoter,
      readAggregatorRound: (address, signal) => {
        aggregatorReads += 1;
        return read(address, signal);
      },
    };
  },
};
const live: PriceSettings = devnetPriceSettings(parseConfig({}), hermesUrl, withDevnetPythFeeds(stack.devnet.chains));
if (live.sources.map((source) => source.kind).join(",") !== "pyth,aggregator")
  throw new Error(`expected the devnet's pyth,aggregator chain, got ${live.sources.map((s) => s.kind).join(",")}`);
const pythOnly: PriceSettings = { ...live, sources: live.sources.filter((source) => source.kind === "pyth") };

const bus = createStatusBus();
const gateways: Record<Mode, Awaited<ReturnType<typeof startStackApi>>> = {
  static: await startStackApi(stack, bus),
  pyth: await startStackApi(stack, bus, { prices: createConfiguredPriceSource(pythOnly) }),
  live: await startStackApi(stack, bus, {
    prices: createConfiguredPriceSource(live, { adapters: countedAdapters }),
  }),
};
const [origin, destination] = stack.devnet.chains;
const user = stack.devnet.accounts[0].address;
const bodies = (["nativeBridge", "erc20Bridge", "swap"] as const).map((kind) =>
  JSON.stringify(quoteBody(kind, origin, destination, user)),
);

/** This stack's anvils (children of this process; the machine's other users run theirs). */
function ownAnvilPids(): number[] {
  return readdirSync("/proc").flatMap((entry) => {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const ppid = Number(stat.slice(close + 2).split(" ")[1]);
      return stat.slice(stat.indexOf("(") + 1, close) === "anvil" && ppid === process.pid ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}
const anvils = ownAnvilPids();
if (anvils.length === 0) throw new Error("no anvil of this stack found among this process's children");
const anvilMs = () => {
  const snapshot = cpuSnapshot();
  return anvils.reduce((sum, pid) => sum + (snapshot.get(pid)?.ms ?? 0), 0);
};

async function round(url: string) {
  const latencies: number[] = [];
  const failures = new Map<string, number>();
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
        const text = await response.text();
        latencies.push(performance.now() - started);
        if (response.status !== 200) {
          const code = `${response.status} ${/"errorCode":"(\w+)"/.exec(text)?.[1] ?? ""}`;
          failures.set(code, (failures.get(code) ?? 0) + 1);
        }
      }
    }),
  );
  return {
    quotesPerSecond: Math.round((latencies.length * 1000) / roundMs),
    p50: summarize(latencies).p50,
    count: latencies.length,
    failures: Object.fromEntries(failures),
  };
}

type Round = { round: number; mode: Mode } & Awaited<ReturnType<typeof round>> & {
    hermesRequests: number;
    aggregatorReads: number;
    cpuMs: Record<string, number>;
    cpuUsPerQuote: number;
  };
const results: Round[] = [];
// Warm-up: every gateway's first quotes (JIT, caches, the layers' first reads).
for (const mode of MODES) await round(gateways[mode].url);
for (let r = 0; r < rounds; r += 1) {
  // The order rotates so that no gateway always follows the same one (the machine's load drifts within a round).
  const order = MODES.map((_, i) => MODES[(i + r) % MODES.length]);
  for (const mode of order) {
    const [hermesBefore, readsBefore, anvilBefore] = [hermesRequests, aggregatorReads, anvilMs()];
    const [result, cpu] = await measureRoundCpu(stack.pool, () => round(gateways[mode].url));
    // µs of CPU a quote: this process (load, gateways, Hermes), the database's backends, the stack's anvils.
    const cpuMs = { ...cpu, anvil: anvilMs() - anvilBefore };
    const cpuUsPerQuote = Math.round(
      ((cpuMs.gateway + cpuMs.postgres + cpuMs.redis + cpuMs.anvil) * 1000) / result.count,
    );
    results.push({
      round: r,
      mode,
      ...result,
      cpuMs,
      cpuUsPerQuote,
      hermesRequests: hermesRequests - hermesBefore,
      aggregatorReads: aggregatorReads - readsBefore,
    });
    process.stderr.write(
      `round ${r} ${mode}: ${result.quotesPerSecond} quotes/s, p50 ${result.p50} ms, ${cpuUsPerQuote} µs CPU a quote\n`,
    );
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const tenth = (value: number) => Math.round(value * 10) / 10;
const staticOf = (r: number) => results.find((x) => x.round === r && x.mode === "static")!;
function modeSummary(mode: Mode) {
  const own = results.filter((x) => x.mode === mode);
  const quotes = own.reduce((sum, x) => sum + x.count, 0);
  const per1000 = (n: number) => Number(((n * 1000) / quotes).toFixed(2));
  const failures: Record<string, number> = {};
  for (const x of own) for (const [code, n] of Object.entries(x.failures)) failures[code] = (failures[code] ?? 0) + n;
  return {
    roundsQuotesPerSecond: own.map((x) => x.quotesPerSecond),
    roundsP50Ms: own.map((x) => x.p50),
    medianQuotesPerSecond: median(own.map((x) => x.quotesPerSecond)),
    medianP50Ms: median(own.map((x) => x.p50)),
    // Each round against the static gateway of the same round, then the median over rounds.
    pairedCostPercent: tenth(100 * (1 - median(own.map((x) => x.quotesPerSecond / staticOf(x.round).quotesPerSecond)))),
    medianCpuUsPerQuote: median(own.map((x) => x.cpuUsPerQuote)),
    // CPU a quote against the same round's static gateway: far less sensitive to the machine's other users.
    pairedCpuCostPercent: tenth(100 * (median(own.map((x) => x.cpuUsPerQuote / staticOf(x.round).cpuUsPerQuote)) - 1)),
    quotes,
    failures,
    hermesRequestsPer1000Quotes: per1000(own.reduce((sum, x) => sum + x.hermesRequests, 0)),
    aggregatorReadsPer1000Quotes: per1000(own.reduce((sum, x) => sum + x.aggregatorReads, 0)),
  };
}
const byMode = { static: modeSummary("static"), pyth: modeSummary("pyth"), live: modeSummary("live") };
const sourcesOf = (mode: "live" | "pyth") => (mode === "live" ? "Pyth → aggregators" : "Pyth alone");
const targets: Target[] = (["live", "pyth"] as const).flatMap((mode) => [
  {
    metric: `quote throughput lost to the price layer (${sourcesOf(mode)}) against the static table, median over ${rounds} rounds of each round against its own static round, %`,
    target: "≤ 10",
    measured: byMode[mode].pairedCostPercent,
    met: byMode[mode].pairedCostPercent <= 10 && Object.keys(byMode[mode].failures).length === 0,
  },
  {
    metric: `extra CPU a quote for the price layer (${sourcesOf(mode)}; bench process + Postgres backends + Redis + anvils) against the static table, median over rounds of each round against its own static round, %`,
    target: "≤ 10",
    measured: byMode[mode].pairedCpuCostPercent,
    met: byMode[mode].pairedCpuCostPercent <= 10,
  },
]);
const summary = { machine, commit, date: date.toISOString(), rounds, roundMs, concurrency, byMode, targets, results };
const file = writeResult("prices", date, summary);
process.stdout.write(`${JSON.stringify({ byMode, targets }, null, 2)}\n${file}\n`);

clearInterval(walk);
for (const gateway of Object.values(gateways)) await gateway.close();
await bus.close();
await stack.stop();
counted.close();
