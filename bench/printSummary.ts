import type { CrashBenchResult } from "./crashBench.js";
import type { PipelineBenchResult } from "./pipelineBench.js";
import type { QuoteBenchResult } from "./quoteBench.js";
import type { RequestsBenchResult } from "./requestsBench.js";
import type { RequestStatsBenchResult } from "./requestStatsBench.js";
import type { Target } from "./target.js";
import type { WebhookBenchResult } from "./webhookBench.js";
import type { PushBenchResult } from "./pushBench.js";
import type { LookupsBenchResult } from "./lookupsBench.js";
import type { BitcoinBenchResult } from "./bitcoinBench.js";
import type { SolanaBenchResult } from "./solanaBench.js";
import type { ExchangeBenchResult } from "./exchangeBench.js";
import type { ScalingBenchResult } from "./scalingBench.js";

function table(header: string[], rows: Array<Array<string | number>>): string {
  const cells = [header, ...rows.map((row) => row.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((row) => row[i].length)));
  const line = (row: string[]) => row.map((cell, i) => cell.padEnd(widths[i])).join("  ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...cells.slice(1).map(line)].join("\n");
}

const targetRows = (targets: Target[]) => targets.map((t) => [t.metric, t.target, t.measured, t.met ? "yes" : "NO"]);
const ms = (s: { p50: number; p95: number; p99: number; max: number } | null) =>
  s ? `${s.p50} / ${s.p95} / ${s.p99} / ${s.max}` : "(not measured)";

const rssLine = (groups: Record<string, { maxMb: number; processes: number }>) =>
  Object.entries(groups)
    .map(([group, r]) => `${group} ${r.maxMb} MB${r.processes > 1 ? ` (largest of ${r.processes})` : ""}`)
    .join("; ");

/** The human summary of a run: targets first, then the main distributions. */
export type BenchResult =
  | QuoteBenchResult
  | PipelineBenchResult
  | CrashBenchResult
  | RequestStatsBenchResult
  | WebhookBenchResult
  | RequestsBenchResult
  | PushBenchResult
  | LookupsBenchResult
  | BitcoinBenchResult
  | SolanaBenchResult
  | ExchangeBenchResult
  | ScalingBenchResult;

export function printSummary(result: BenchResult): string {
  const head = `${result.benchmark} — ${result.date}, commit ${result.commit}, ${result.machine.cores} × ${result.machine.cpuModel}, ${result.machine.totalMemoryGiB} GiB, Node ${result.machine.node}`;
  const targets = table(["metric", "target", "measured", "met?"], targetRows(result.targets));
  if (result.benchmark === "lookups") {
    const phases = table(
      ["phase", "req/s", "÷ floor", "latency p50 / p99 / max (ms)", "non-2xx/3xx, errors"],
      result.phases.map((p) => [
        p.name,
        p.requestsPerSecond,
        (p.requestsPerSecond / result.floorRequestsPerSecond).toFixed(3),
        `${p.latencyMs.p50} / ${p.latencyMs.p99} / ${p.latencyMs.max}`,
        `${p.statuses["4xx"] + p.statuses["5xx"]}, ${p.errors + p.timeouts}`,
      ]),
    );
    return `${head}\n${targets}\n\n${phases}\n(floor ${result.floorRequestsPerSecond} req/s; peak RSS: ${rssLine(result.peakRssMb)})`;
  }
  if (result.benchmark === "scaling") {
    const grid = table(
      ["measure, p50 / p95 ms", ...result.sizes.map((size) => `${size.requests} requests`)],
      result.sizes[0]!.measured.map((first, index) => [
        first.name,
        ...result.sizes.map(
          (size) => `${size.measured[index]!.latencyMs.p50} / ${size.measured[index]!.latencyMs.p95}`,
        ),
      ]),
    );
    const seeds = result.sizes.map((size) => `${size.requests} in ${size.seedSeconds} s`).join(", ");
    return `${head}\n${targets}\n\n${grid}\n(seeded ${seeds}; peak RSS: ${rssLine(result.peakRssMb)})`;
  }
  if (result.benchmark === "bitcoin") {
    const l = result.latencyMs;
    const stages = table(
      ["interval (ms)", "p50 / p95 / p99 / max"],
      [
        ["broadcast → pending row", ms(l.broadcastToPending)],
        ["  broadcast → mempool deposit fact visible (5 ms poll)", ms(l.broadcastToMempoolFactVisible)],
        ["confirmation block → submitted row", ms(l.blockToSubmitted)],
        ["  block → block deposit fact visible (5 ms poll)", ms(l.blockToBlockFactVisible)],
        ["confirmation block → success row", ms(l.blockToSuccess)],
        ["floor: Esplora GET /blocks/tip/height", ms(result.floor.esploraTipMs)],
        ["floor: Esplora GET /address/:depository/txs/mempool", ms(result.floor.esploraMempoolMs)],
      ],
    );
    return `${head}\n${targets}\n\n${stages}\n(${result.completed} deposits completed, ${result.failed.length} not; poller every ${result.floor.pollEveryMs} ms; peak RSS: ${rssLine(result.peakRssMb)})`;
  }
  if (result.benchmark === "solana") {
    const l = result.latencyMs;
    const stages = table(
      ["interval (ms)", "p50 / p95 / p99 / max"],
      [
        ["deposit landed → pending row", ms(l.landedToPending)],
        ["deposit landed → finalized (5 ms poll)", ms(l.landedToFinalized)],
        ["finalized → success row", ms(l.finalizedToSuccess)],
        ["sendTransaction round trip", ms(l.send)],
      ],
    );
    const { slotMs, confirmedAfterSlots, finalizedAfterSlots } = result.slot;
    return `${head}\n${targets}\n\n${stages}\n(${result.completed} deposits completed, ${result.failed.length} not; slot ${slotMs} ms, confirmed ${confirmedAfterSlots} and finalized ${finalizedAfterSlots} slots after landing; peak RSS: ${rssLine(result.peakRssMb)})`;
  }
  if (result.benchmark === "exchange") {
    const l = result.latencyMs;
    const stages = table(
      ["interval (ms)", "p50 / p95 / p99 / max"],
      [
        ["transfer accepted → pending row", ms(l.acceptedToPending)],
        ["transfer accepted → success row", ms(l.acceptedToSuccess)],
        ["POST /exchange (sign verified, ledger written)", ms(l.exchangePost)],
        ["floor: POST /info userNonFundingLedgerUpdates", ms(result.floor.ledgerUpdatesMs)],
      ],
    );
    return `${head}\n${targets}\n\n${stages}\n(${result.completed} withdrawals completed, ${result.failed.length} not; poller every ${result.floor.pollEveryMs} ms; peak RSS: ${rssLine(result.peakRssMb)})`;
  }
  if (result.benchmark === "requests")
    return `${head}\n${targets}\n(${result.requests} requests seeded in ${result.seedSeconds} s, ${result.samples} samples per case, rate limiter on ${result.limiter})`;
  if (result.benchmark === "quote") {
    const phases = table(
      ["phase", "quotes", "errors", "quotes/s", "latency p50 / p95 / p99 / max (ms)"],
      [
        [
          "sequential",
          result.sequential.completed,
          result.sequential.errors,
          result.sequential.quotesPerSecond,
          ms(result.sequential.latencyMs),
        ],
        ...result.concurrent.map((c) => [
          `${c.concurrency} in flight`,
          c.completed,
          c.errors,
          c.quotesPerSecond,
          ms(c.latencyMs),
        ]),
      ],
    );
    const limiter = result.limiterOverhead;
    const rounds = limiter
      ? `\n\nquote rate limit, ${limiter.concurrency} in flight, ${limiter.roundMs / 1000} s rounds, ${limiter.addresses || "one"} client address(es) (quotes/s per round; median; cost of the medians; median of the rounds' own costs; CPU µs a quote, gateway + Postgres + Redis = total; extra CPU a quote against the floor, median of the rounds'):\n${Object.entries(
          limiter.byMode,
        )
          .map(
            ([mode, m]) =>
              `  ${mode}: ${m.roundsQuotesPerSecond.join(" / ")}; ${m.medianQuotesPerSecond}; ${m.costPercent} %; ${m.pairedCostPercent} %; ${m.medianCpuUsPerQuote.gateway} + ${m.medianCpuUsPerQuote.postgres} + ${m.medianCpuUsPerQuote.redis} = ${m.medianCpuUsPerQuote.total} µs; ${m.pairedCpuCostPercent} %`,
          )
          .join("\n")}`
      : "";
    return `${head}\n${targets}\n\n${phases}${rounds}`;
  }
  if (result.benchmark === "webhook") {
    const t = result.throughput;
    return `${head}\n${targets}\n\n${t.deliveries} deliveries in ${t.seconds} s (${t.deliveriesPerSecond}/s); change → first attempt p50 / p95 / p99 / max: ${ms(result.firstAttemptMs)} ms`;
  }
  if (result.benchmark === "push") {
    return `${head}\n${targets}\n\n${result.connected} subscribers connected in ${result.connectSeconds} s; ${result.delivered} of ${result.published} updates delivered, publish → subscriber p50 / p95 / p99 / max: ${ms(result.deliveryMs)} ms`;
  }
  if (result.benchmark === "requestStats") {
    const cases = table(
      ["case", "buckets", "latency p50 / p95 / p99 / max (ms)"],
      result.cases.map((c) => [c.name, c.buckets, ms(c.latencyMs)]),
    );
    return `${head}\n${targets}\n\n${cases}\n(${result.requests} requests)`;
  }
  if (result.benchmark === "crash") {
    const runs = table(
      ["measure", "p50 / p95 / p99 / max (ms)"],
      [
        ["restart after SIGKILL", ms(result.restartMs)],
        ["intent, quote → final", ms(result.intentMs)],
        ["kill → final, intents in flight", ms(result.recoveryMs)],
      ],
    );
    return `${head}\n${targets}\n\n${runs}\n(kills: ${JSON.stringify(result.kills)}; ${result.intents.success} success, ${result.intents.refund} refund)`;
  }
  const l = result.latencyMs;
  const stages = table(
    ["interval (ms)", "p50 / p95 / p99 / max"],
    [
      ["deposit block → pending row", ms(l.depositBlockToPending)],
      ["deposit block → pending row visible (committed; 10 ms poll)", ms(l.depositBlockToPendingVisible)],
      ["  deposit block → head watcher's fact row", ms(l.depositBlockToWatcherFact)],
      ["  head watcher's fact row → pending row", ms(l.watcherFactToPending)],
      ["deposit block → success row", ms(l.depositBlockToSuccess)],
      ["pending → submitted", ms(l.pendingToSubmitted)],
      ["  pending → fill job added", ms(l.pendingToFillJobAdded)],
      ["  fill job added → started", ms(l.fillJobAddedToStarted)],
      ["  fill job started → finished", ms(l.fillJobStartedToFinished)],
      ["submitted → fill block", ms(l.submittedToFillBlock)],
      ["fill block → success row", ms(l.fillBlockToSuccess)],
      ["deposit block → deposit in Ponder view (10 ms poll)", ms(l.depositBlockToDepositIndexedVisible)],
      ["deposit in Ponder view → pending row visible (10 ms polls)", ms(l.depositIndexedVisibleToPendingVisible)],
      ["fill block → fill in Ponder view (10 ms poll)", ms(l.fillBlockToFillIndexedVisible)],
    ],
  );
  return `${head}\n${targets}\n\n${stages}\n(${result.completed} intents completed, ${result.failed.length} not; ${result.pendingNeverSeen} pending rows the poll never saw; destination blocks came ${result.destinationBlockPhaseMs} ms after origin blocks; peak RSS: ${rssLine(result.peakRssMb)})`;
}
