import { createPostgresRateLimiter } from "../src/gateway/http/rateLimiter.js";
import { createMetrics } from "../src/metrics/createMetrics.js";
import type { TestStack } from "../test/support/startTestStack.js";
import { testRouteLimits } from "../test/support/testRateLimits.js";
import { median } from "./percentiles.js";
import { stackRest, startModeGateways } from "./startStackApi.js";
import type { Target } from "./target.js";

/** The gateways the rounds alternate between: the same quote engine and database, one observed by prom-client. */
export const METRICS_MODES = ["off", "on"] as const;
export type MetricsMode = (typeof METRICS_MODES)[number];

export type MetricsRound = {
  round: number;
  mode: MetricsMode;
  quotesPerSecond: number;
  p50Ms: number;
  completed: number;
  errors: number;
  /** CPU µs a quote of the bench process (both gateways and the scrapes' client) and the database's backends. */
  cpuUsPerQuote: number;
};
export type MetricsOverhead = {
  concurrency: number;
  roundMs: number;
  scrapeEveryMs: number;
  rounds: MetricsRound[];
  /**
   * Per mode: the median over its rounds of quotes/s and of p50; `pairedCostPercent` (throughput lost) and
   * `pairedP50CostPercent` (p50 added) are medians over rounds of each round's own comparison with the round's gateway
   * without metrics (the load of the machine's other users drifts over minutes, less within one round).
   */
  byMode: Record<
    MetricsMode,
    {
      medianQuotesPerSecond: number;
      medianP50Ms: number;
      pairedCostPercent: number;
      pairedP50CostPercent: number;
      /** CPU a quote added, % of the round's own without metrics (far less sensitive to other load than throughput). */
      pairedCpuCostPercent: number;
      medianCpuUsPerQuote: number;
      roundsQuotesPerSecond: number[];
    }
  >;
};

/**
 * Two gateways on the stack's database and chains, as the API role builds them (startApi), the quote route not rate
 * limited: one without metrics (`metrics: false`: nothing observed, no /metrics), one with the role's registry (every
 * request into the latency histogram, every quote counted). Node's process metrics are left out of both: they watch
 * the whole process (event loop, GC), which both gateways share here.
 */
export async function startMetricsGateways(
  stack: TestStack,
): Promise<{ urls: Record<MetricsMode, string>; stop(): Promise<void> }> {
  const limiter = createPostgresRateLimiter(stack.pool);
  return startModeGateways(
    stack,
    METRICS_MODES,
    (mode) => ({
      rest: stackRest(stack, limiter, testRouteLimits("quote=off"), false),
      metrics: mode === "on" ? createMetrics("api") : false,
    }),
    () => limiter.close(),
  );
}

/**
 * Runs `round` against `url` while scraping its `/metrics` every `everyMs` (a Prometheus far more eager than its 15 s
 * default), so the cost of serving the page counts too; the round's result and the scrapes made.
 */
export async function whileScraped<T>(url: string, everyMs: number, round: () => Promise<T>): Promise<[T, number]> {
  let scrapes = 0;
  const failures: string[] = [];
  const timer = setInterval(() => {
    fetch(`${url}/metrics`)
      .then(async (response) => {
        await response.text();
        if (response.status === 200) scrapes += 1;
        else failures.push(`GET /metrics answered ${response.status}`);
      })
      .catch((error: Error) => failures.push(error.message));
  }, everyMs);
  try {
    const result = await round();
    if (failures.length) throw new Error(`scraping ${url}/metrics failed: ${failures[0]}`);
    return [result, scrapes];
  } finally {
    clearInterval(timer);
  }
}

/** The rounds summed up per mode; each mode's cost is against the round's own gateway without metrics. */
export function metricsOverhead(
  concurrency: number,
  roundMs: number,
  scrapeEveryMs: number,
  rounds: MetricsRound[],
): MetricsOverhead {
  const percent = (ratio: number) => Math.round((ratio - 1) * 1000) / 10;
  const offOf = (round: number) => rounds.find((r) => r.round === round && r.mode === "off")!;
  const byMode = Object.fromEntries(
    METRICS_MODES.map((mode) => {
      const own = rounds.filter((r) => r.mode === mode);
      return [
        mode,
        {
          medianQuotesPerSecond: Math.round(median(own.map((r) => r.quotesPerSecond)) * 10) / 10,
          medianP50Ms: Math.round(median(own.map((r) => r.p50Ms)) * 100) / 100,
          // Throughput lost: 1 − on/off, in %.
          pairedCostPercent: 0 - percent(median(own.map((r) => r.quotesPerSecond / offOf(r.round).quotesPerSecond))),
          pairedP50CostPercent: percent(median(own.map((r) => r.p50Ms / offOf(r.round).p50Ms))),
          pairedCpuCostPercent: percent(median(own.map((r) => r.cpuUsPerQuote / offOf(r.round).cpuUsPerQuote))),
          medianCpuUsPerQuote: Math.round(median(own.map((r) => r.cpuUsPerQuote))),
          roundsQuotesPerSecond: own.map((r) => r.quotesPerSecond),
        },
      ];
    }),
  ) as MetricsOverhead["byMode"];
  return { concurrency, roundMs, scrapeEveryMs, rounds, byMode };
}

/** The issue 28 target: the metrics cost under 3 % of quote throughput. */
export function metricsTargets(overhead: MetricsOverhead): Target[] {
  const { pairedCostPercent, pairedCpuCostPercent, roundsQuotesPerSecond } = overhead.byMode.on;
  const rounds = `median over ${roundsQuotesPerSecond.length} rounds of each round against its own round without metrics, %`;
  return [
    {
      metric: `quote throughput lost to metrics, ${overhead.concurrency} in flight, /metrics scraped every ${overhead.scrapeEveryMs / 1000} s (${rounds})`,
      target: "< 3",
      measured: pairedCostPercent,
      met: pairedCostPercent < 3,
    },
    {
      metric: `extra CPU per quote for metrics (bench process with the gateways + their Postgres backends), ${overhead.concurrency} in flight (${rounds})`,
      target: "< 3",
      measured: pairedCpuCostPercent,
      met: pairedCpuCostPercent < 3,
    },
  ];
}
