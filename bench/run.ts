/**
 * `npm run bench [-- <name>…] [--option=value…]`: runs the benchmarks (all, or the named ones), writes each
 * result to bench/results/<name>-<ISO date>.json and prints a summary.
 *
 *   quote      --warmup=200 --sequential=1000 --concurrency=16,64 --duration=10000 --profile=5000 [--cpuprofile=file]
 *              [--app-fees]   (every quote with two app-fee recipients)
 *              [--quote-workers=N]   (load on `crossfill api --workers N` instead of the in-process API; not profiled)
 *              --limiter-rounds=4 --limiter-round=5000   (the quote rate limit's cost: gateways without it, counting on
 *              Redis, counting on Postgres, alternated; 0 rounds skips it; --profile=0 skips the profile)
 *              [--limiter-addresses=N]   (the rounds' load from N client addresses instead of one)
 *              --metrics-rounds=6 --metrics-round=5000 --metrics-scrape=1000   (the metrics' cost: a gateway without
 *              them and one with them, /metrics scraped every --metrics-scrape ms, alternated; 0 rounds skips it)
 *   pipeline   --intents=50 --accounts=5 --timeout=90000
 *              [--no-deposit-watcher]   (deposits from Ponder's rows alone, without the EVM head watcher)
 *              [--in-process]   (API, worker and head watcher in the bench process, not as crossfill processes)
 *   crash      --crash-intents=200 --kill-every=8000   (long crash run: random SIGKILLs of api, worker, indexer)
 *   requests   GET /requests/v3 over 1M seeded requests (options: npx tsx bench/requestsBench.ts)
 *   requestStats   GraphQL analytics over 1M seeded requests (options: npx tsx bench/requestStatsBench.ts)
 *   webhook    --webhook-deliveries=10000 --webhook-samples=300   (throughput to a local receiver, change → first attempt)
 *   push       --push-subscribers=10000 --push-every=10 --push-duration=10000   (graphql-ws fan-out from one gateway)
 *   lookups    --lookups-connections=32 --lookups-duration=10   (bare route vs GET /intents/status/v3 vs GET /chains)
 *   scaling    --scaling-sizes=10000,100000,1000000   (status lookup, quote, slowest /requests/v3 families per table size)
 *   bitcoin    --btc-deposits=25   (BTC → EVM on the devnet Esplora: broadcast → pending, confirmation block → submitted)
 *   solana     --sol-deposits=24   (SOL → EVM on the devnet Solana: landed → pending, finalized → success, slot time)
 *   exchange   --exchange-withdrawals=20   (perps exchange → EVM: transfer accepted → pending, → success)
 *   --no-write   print only
 *   --quiet-wait=60000   how long to wait for the CPUs to be ≥ 85 % idle before each benchmark (0: don't)
 */
import { crashBench, defaultCrashBenchOptions } from "./crashBench.js";
import { pipelineBench, defaultPipelineBenchOptions } from "./pipelineBench.js";
import { type BenchResult, printSummary } from "./printSummary.js";
import { requestsBench } from "./requestsBench.js";
import { defaultQuoteBenchOptions, quoteBench } from "./quoteBench.js";
import { defaultRequestStatsBenchOptions, requestStatsBench } from "./requestStatsBench.js";
import { defaultWebhookBenchOptions, webhookBench } from "./webhookBench.js";
import { defaultPushBenchOptions, pushBench } from "./pushBench.js";
import { waitForQuietMachine } from "./quietMachine.js";
import { defaultLookupsBenchOptions, lookupsBench } from "./lookupsBench.js";
import { writeResult } from "./writeResult.js";
import { bitcoinBench, defaultBitcoinBenchOptions } from "./bitcoinBench.js";
import { defaultSolanaBenchOptions, solanaBench } from "./solanaBench.js";
import { defaultExchangeBenchOptions, exchangeBench } from "./exchangeBench.js";
import { defaultScalingBenchOptions, scalingBench } from "./scalingBench.js";

const BENCHMARKS = [
  "quote",
  "pipeline",
  "crash",
  "requests",
  "requestStats",
  "webhook",
  "push",
  "lookups",
  "bitcoin",
  "solana",
  "exchange",
  "scaling",
] as const;
type BenchName = (typeof BENCHMARKS)[number];

function parseArgs(argv: string[]) {
  const names: BenchName[] = [];
  const flags = new Map<string, string>();
  for (const arg of argv) {
    if (arg.startsWith("--")) {
      const [key, value = "true"] = arg.slice(2).split("=", 2);
      flags.set(key, value);
    } else if ((BENCHMARKS as readonly string[]).includes(arg)) {
      names.push(arg as BenchName);
    } else {
      throw new Error(`unknown benchmark "${arg}"; known: ${BENCHMARKS.join(", ")}`);
    }
  }
  const number = (key: string, fallback: number) => {
    const value = flags.get(key);
    if (value === undefined) return fallback;
    const parsed = Number(value);
    if (!Number.isFinite(parsed) || parsed < 0) throw new Error(`--${key} must be a non-negative number, got ${value}`);
    return parsed;
  };
  const quote = {
    warmup: number("warmup", defaultQuoteBenchOptions.warmup),
    sequential: number("sequential", defaultQuoteBenchOptions.sequential),
    concurrency: flags.has("concurrency")
      ? flags.get("concurrency")!.split(",").map(Number)
      : defaultQuoteBenchOptions.concurrency,
    durationMs: number("duration", defaultQuoteBenchOptions.durationMs),
    profileMs: number("profile", defaultQuoteBenchOptions.profileMs),
    cpuprofile: flags.get("cpuprofile"),
    appFees: flags.get("app-fees") === "true",
    workers: number("quote-workers", defaultQuoteBenchOptions.workers),
    limiterRounds: number("limiter-rounds", defaultQuoteBenchOptions.limiterRounds),
    limiterRoundMs: number("limiter-round", defaultQuoteBenchOptions.limiterRoundMs),
    limiterAddresses: number("limiter-addresses", defaultQuoteBenchOptions.limiterAddresses),
    metricsRounds: number("metrics-rounds", defaultQuoteBenchOptions.metricsRounds),
    metricsRoundMs: number("metrics-round", defaultQuoteBenchOptions.metricsRoundMs),
    metricsScrapeMs: number("metrics-scrape", defaultQuoteBenchOptions.metricsScrapeMs),
  };
  if (quote.concurrency.some((c) => !Number.isInteger(c) || c < 1))
    throw new Error("--concurrency takes positive integers, comma-separated");
  const pipeline = {
    intents: number("intents", defaultPipelineBenchOptions.intents),
    accounts: number("accounts", defaultPipelineBenchOptions.accounts),
    timeoutMs: number("timeout", defaultPipelineBenchOptions.timeoutMs),
    depositWatcher: !flags.has("no-deposit-watcher"),
    topology: flags.has("in-process") ? ("in-process" as const) : ("processes" as const),
  };
  const crash = {
    ...defaultCrashBenchOptions,
    intents: number("crash-intents", defaultCrashBenchOptions.intents),
    killEveryMs: number("kill-every", defaultCrashBenchOptions.killEveryMs),
  };
  const webhook = {
    ...defaultWebhookBenchOptions,
    deliveries: number("webhook-deliveries", defaultWebhookBenchOptions.deliveries),
    latencySamples: number("webhook-samples", defaultWebhookBenchOptions.latencySamples),
  };
  const push = {
    ...defaultPushBenchOptions,
    subscribers: number("push-subscribers", defaultPushBenchOptions.subscribers),
    everyMs: number("push-every", defaultPushBenchOptions.everyMs),
    durationMs: number("push-duration", defaultPushBenchOptions.durationMs),
  };
  const lookups = {
    ...defaultLookupsBenchOptions,
    connections: number("lookups-connections", defaultLookupsBenchOptions.connections),
    durationSeconds: number("lookups-duration", defaultLookupsBenchOptions.durationSeconds),
  };
  const bitcoin = {
    ...defaultBitcoinBenchOptions,
    deposits: number("btc-deposits", defaultBitcoinBenchOptions.deposits),
  };
  const solana = {
    ...defaultSolanaBenchOptions,
    deposits: number("sol-deposits", defaultSolanaBenchOptions.deposits),
  };
  const exchange = {
    ...defaultExchangeBenchOptions,
    withdrawals: number("exchange-withdrawals", defaultExchangeBenchOptions.withdrawals),
  };
  const scaling = {
    ...defaultScalingBenchOptions,
    sizes: flags.has("scaling-sizes")
      ? flags.get("scaling-sizes")!.split(",").map(Number)
      : defaultScalingBenchOptions.sizes,
  };
  if (scaling.sizes.some((size) => !Number.isInteger(size) || size < 100))
    throw new Error("--scaling-sizes takes integers ≥ 100, comma-separated");
  const quietWaitMs = number("quiet-wait", 60_000);
  return {
    names: names.length ? names : [...BENCHMARKS],
    write: !flags.has("no-write"),
    quietWaitMs,
    quote,
    pipeline,
    crash,
    webhook,
    push,
    lookups,
    bitcoin,
    solana,
    exchange,
    scaling,
  };
}

const log = (line: string) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  const summaries: string[] = [];
  let failures = 0;
  for (const name of args.names) {
    try {
      const idlePercentBefore = await waitForQuietMachine({ maxWaitMs: args.quietWaitMs, log });
      const runners: Record<BenchName, () => Promise<BenchResult>> = {
        quote: () => quoteBench(args.quote, log),
        pipeline: () => pipelineBench(args.pipeline, log),
        crash: () => crashBench(args.crash, log),
        requests: () => requestsBench(),
        requestStats: () => requestStatsBench(defaultRequestStatsBenchOptions, log),
        webhook: () => webhookBench(args.webhook, log),
        push: () => pushBench(args.push, log),
        lookups: () => lookupsBench(args.lookups, log),
        bitcoin: () => bitcoinBench(args.bitcoin, log),
        solana: () => solanaBench(args.solana, log),
        exchange: () => exchangeBench(args.exchange, log),
        scaling: () => scalingBench(args.scaling, log),
      };
      const result = await runners[name]();
      result.machine.idlePercentBeforeStart = idlePercentBefore;
      if (args.write) log(`wrote ${writeResult(name, new Date(result.date), result)}`);
      summaries.push(printSummary(result));
    } catch (error) {
      failures += 1;
      log(`${name} failed: ${(error as Error).stack ?? error}`);
    }
  }
  console.log(`\n${summaries.join("\n\n")}`);
  return failures ? 1 : 0;
}

// Exit explicitly once the results are written: a handle left open by any part of the stack (before d42c46e,
// the BullMQ workers' Redis connections) must not keep `npm run bench` from ending.
main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error.message);
    process.exit(2);
  },
);
