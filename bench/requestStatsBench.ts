/**
 * GraphQL `requestStats` over 1,000,000 seeded requests (the seeding of bench/requestsBench.ts,
 * schema/seedBenchRequests.ts): p50/p95 per grouping over a full year, through the real GraphQL server in
 * process (key lookup, validation, SQL, JSON), and each case's query plan.
 *
 *   npx tsx bench/requestStatsBench.ts [--requests=1000000] [--samples=15] [--keep] [--no-cluster] [--database=<url of a kept, seeded database>]
 *   npm run bench -- requestStats
 * Target (issue 4): grouped by chain and day over 1,000,000 requests ≤ 500 ms.
 */
import pg from "pg";
import { migrate } from "../schema/migrate.js";
import { explainRequestStats, requestStats } from "../schema/requestStats.js";
import { seedBenchRequests } from "../schema/seedBenchRequests.js";
import { createStatusBus } from "../src/events/createStatusBus.js";
import { createStatusFanout } from "../src/events/createStatusFanout.js";
import { emptyFilter } from "../schema/requestFilter.js";
import { createTestGraphqlServer } from "../test/support/createTestGraphqlServer.js";
import { createTestDatabase } from "../test/support/testDatabase.js";
import { type MachineInfo, gitCommit, machineInfo } from "./machineInfo.js";
import { type Summary, summarize } from "./percentiles.js";
import { waitForQuietMachine } from "./quietMachine.js";
import type { Target } from "./target.js";
import { writeResult } from "./writeResult.js";

/** `cluster`: after seeding, put the heap in creation order (as a live table's is); `--no-cluster` keeps the seed's random order. */
export type RequestStatsBenchOptions = {
  requests: number;
  samples: number;
  keep: boolean;
  cluster: boolean;
  databaseUrl?: string;
};
export const defaultRequestStatsBenchOptions: RequestStatsBenchOptions = {
  requests: 1_000_000,
  samples: 15,
  keep: false,
  cluster: true,
};

type Case = { name: string; groupBy: string[]; days: number; filter?: Record<string, unknown>; target?: number };
export type RequestStatsBenchResult = {
  benchmark: "requestStats";
  date: string;
  commit: string;
  machine: MachineInfo;
  requests: number;
  seedSeconds: number | null;
  /** Seconds to CLUSTER the seeded heap into creation order; null when not done (an existing database, or --no-cluster). */
  clusterSeconds: number | null;
  /** Idle share of the CPUs just before the timed calls (after the seed's own writes were checkpointed). */
  idlePercentBeforeTiming: number;
  targets: Target[];
  cases: Array<{
    name: string;
    groupBy: string[];
    days: number;
    filter: Record<string, unknown> | null;
    buckets: number;
    latencyMs: Summary;
    plan: string;
  }>;
  /** The target case read from the raw rows only (requestStats' `raw` source, called directly, no GraphQL): what the rollups save. */
  rawReference: { name: string; latencyMs: Summary; plan: string };
};

const KEY = "cf_bench_1";
const TARGET_MS = 500;
const CASES: Case[] = [
  { name: "origin chain × day, full year", groupBy: ["ORIGIN_CHAIN", "DAY"], days: 366, target: TARGET_MS },
  { name: "destination chain × day, full year", groupBy: ["DESTINATION_CHAIN", "DAY"], days: 366, target: TARGET_MS },
  { name: "no grouping, full year", groupBy: [], days: 366 },
  {
    name: "origin × destination × status, full year",
    groupBy: ["ORIGIN_CHAIN", "DESTINATION_CHAIN", "STATUS"],
    days: 366,
  },
  { name: "currency in × fail reason, full year", groupBy: ["CURRENCY_IN", "FAIL_REASON"], days: 366 },
  {
    name: "origin chain × day, the caller's key (apiKey filter)",
    groupBy: ["ORIGIN_CHAIN", "DAY"],
    days: 366,
    filter: { apiKey: ["key_bench_1"] },
  },
  { name: "origin chain × hour, 31 days", groupBy: ["ORIGIN_CHAIN", "HOUR"], days: 31 },
];

const QUERY = `query ($filter: RequestFilterInput, $from: DateTime!, $to: DateTime!, $groupBy: [RequestStatsGroup!]) {
  requestStats(filter: $filter, from: $from, to: $to, groupBy: $groupBy) {
    originChainId destinationChainId status currencyInSymbol failReason day hour
    count volumeUsd filledVolumeUsd successes finished successRate fillSecondsP50 fillSecondsP95 feesUsd } }`;

export async function requestStatsBench(
  options: RequestStatsBenchOptions,
  log: (line: string) => void,
): Promise<RequestStatsBenchResult> {
  const machine = machineInfo();
  const created = options.databaseUrl ? undefined : await createTestDatabase("crossfill_bench");
  const pool = new pg.Pool({ connectionString: options.databaseUrl ?? created!.url, max: 8 });
  const bus = createStatusBus();
  let server: ReturnType<typeof createTestGraphqlServer> | undefined;
  try {
    await migrate(pool);
    let seedSeconds: number | null = null;
    let clusterSeconds: number | null = null;
    const { rows } = await pool.query<{ seeded: boolean }>(
      "SELECT EXISTS (SELECT 1 FROM crossfill.requests) AS seeded",
    );
    if (!rows[0].seeded) {
      const started = performance.now();
      await seedBenchRequests(
        pool,
        { requests: options.requests, integrators: 20, chainIds: [1, 10, 8453, 42161], wallets: 100_000 },
        (phase) => log(`  ${phase} at ${Math.round(performance.now() - started) / 1000} s`),
      );
      seedSeconds = Math.round(performance.now() - started) / 1000;
      log(`seeded ${options.requests} requests in ${seedSeconds} s`);
      if (options.cluster) {
        // The seed inserts requests in random creation order; a live table receives them in creation order (and
        // its status updates land minutes later, close by). Index-only scans in creation order check the
        // visibility map per row, and in random heap order that alternates between its pages: 795k buffer
        // accesses instead of 12k for a year (docs/PERFORMANCE.md). Reordered once, like production.
        const started = performance.now();
        await pool.query("SET maintenance_work_mem = '512MB'");
        await pool.query("CLUSTER crossfill.requests USING requests_created_idx");
        await pool.query("VACUUM (ANALYZE) crossfill.requests");
        clusterSeconds = Math.round(performance.now() - started) / 1000;
        log(`heap in creation order in ${clusterSeconds} s`);
      }
    }
    if (seedSeconds !== null) {
      // The seed wrote ~1.5 GB: flush it now, so its checkpoint does not run during the timed calls.
      await pool
        .query("CHECKPOINT")
        .catch((error: Error) => log(`no CHECKPOINT (${error.message}): the timed calls may share the disk with it`));
    }
    // Times the queries, not the seeding's aftermath or another process: as bench/run.ts does before a benchmark.
    const idlePercentBeforeTiming = await waitForQuietMachine({ maxWaitMs: 60_000, log });
    const { rows: counted } = await pool.query<{ total: string }>("SELECT count(*) AS total FROM crossfill.requests");
    server = createTestGraphqlServer({ db: pool, statusUpdates: createStatusFanout(bus) });
    const to = new Date(Date.now() + 60_000);
    const call = async (c: Case) => {
      const from = new Date(to.getTime() - c.days * 86_400_000);
      const started = performance.now();
      const response = await server!.fetch(
        new Request("http://localhost/graphql", {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": KEY },
          body: JSON.stringify({ query: QUERY, variables: { from, to, groupBy: c.groupBy, filter: c.filter } }),
        }),
      );
      const body = (await response.json()) as { data?: { requestStats: unknown[] }; errors?: unknown[] };
      if (!body.data) throw new Error(`${c.name}: ${JSON.stringify(body.errors)}`);
      return { ms: performance.now() - started, buckets: body.data.requestStats.length };
    };

    const cases: RequestStatsBenchResult["cases"] = [];
    for (const c of CASES) {
      const first = await call(c); // warms the buffer cache; not counted
      const samples: number[] = [];
      for (let i = 0; i < options.samples; i++) samples.push((await call(c)).ms);
      const from = new Date(to.getTime() - c.days * 86_400_000);
      const filter = c.filter
        ? {
            ...emptyFilter(),
            conditions: [{ field: "apiKey" as const, negate: false, values: c.filter.apiKey as string[] }],
          }
        : emptyFilter();
      const plan = await explainRequestStats(pool, { filter, from, to, groupBy: c.groupBy as never });
      const latencyMs = summarize(samples);
      cases.push({
        name: c.name,
        groupBy: c.groupBy,
        days: c.days,
        filter: c.filter ?? null,
        buckets: first.buckets,
        latencyMs,
        plan,
      });
      log(`${c.name}: p50 ${latencyMs.p50} ms, p95 ${latencyMs.p95} ms, ${first.buckets} buckets`);
    }
    // The target case again, from the raw rows only (the path before the rollups), called directly.
    const reference = {
      filter: emptyFilter(),
      from: new Date(to.getTime() - 366 * 86_400_000),
      to,
      groupBy: CASES[0].groupBy as never,
    };
    await requestStats(pool, reference, "raw");
    const rawSamples: number[] = [];
    for (let i = 0; i < options.samples; i++) {
      const started = performance.now();
      await requestStats(pool, reference, "raw");
      rawSamples.push(performance.now() - started);
    }
    const rawReference = {
      name: `${CASES[0].name}, raw rows (schema call)`,
      latencyMs: summarize(rawSamples),
      plan: await explainRequestStats(pool, reference, "raw"),
    };
    log(`${rawReference.name}: p50 ${rawReference.latencyMs.p50} ms, p95 ${rawReference.latencyMs.p95} ms`);
    const targets = CASES.flatMap((c, index) =>
      c.target === undefined
        ? []
        : [
            {
              metric: `${c.name} p95 (ms)`,
              target: `≤ ${c.target}`,
              measured: cases[index].latencyMs.p95,
              met: cases[index].latencyMs.p95 <= c.target,
            },
          ],
    );
    return {
      benchmark: "requestStats",
      date: new Date().toISOString(),
      commit: gitCommit(),
      machine,
      requests: Number(counted[0].total),
      seedSeconds,
      clusterSeconds,
      idlePercentBeforeTiming,
      targets,
      cases,
      rawReference,
    };
  } finally {
    await server?.close();
    await bus.close();
    await pool.end();
    if (created && !options.keep) await created.drop();
    if (created && options.keep) log(`kept database ${created.url}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const flag = (name: string) =>
    process.argv
      .find((arg) => arg.startsWith(`--${name}=`))
      ?.split("=")
      .slice(1)
      .join("=");
  const options: RequestStatsBenchOptions = {
    requests: Number(flag("requests") ?? defaultRequestStatsBenchOptions.requests),
    samples: Number(flag("samples") ?? defaultRequestStatsBenchOptions.samples),
    keep: process.argv.includes("--keep"),
    cluster: !process.argv.includes("--no-cluster"),
    databaseUrl: flag("database"),
  };
  const log = (line: string) => process.stderr.write(`${line}\n`);
  requestStatsBench(options, log).then(
    (result) => {
      log(`wrote ${writeResult("requestStats", new Date(result.date), result)}`);
      process.exit(result.targets.every((target) => target.met) ? 0 : 1);
    },
    (error: Error) => {
      log(error.stack ?? String(error));
      process.exit(2);
    },
  );
}
