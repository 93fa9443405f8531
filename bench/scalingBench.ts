import { createHash, randomBytes } from "node:crypto";
import { explainCountRequests } from "../schema/countRequests.js";
import { explainRequestPage } from "../schema/requestsQuery.js";
import { DEFAULT_FACT_WINDOWS } from "../jobs/createFactWindows.js";
import { findUnappliedDeposits, findUnappliedFills } from "../schema/unappliedFacts.js";
import { seedBenchChainFacts } from "../schema/seedBenchChainFacts.js";
import { seedBenchRequests } from "../schema/seedBenchRequests.js";
import { truncateBenchRequests } from "../schema/truncateBenchRequests.js";
import { createRedisRateLimiter } from "../src/gateway/http/rateLimiter.js";
import { parseRequestsV3Query } from "../src/gateway/rest/parseRequestsQuery.js";
import { authorizeRequestFilter } from "../src/requests/authorizeRequestFilter.js";
import { startTestStack } from "../test/support/startTestStack.js";
import { type MachineInfo, gitCommit, machineInfo } from "./machineInfo.js";
import { type Summary, summarize } from "./percentiles.js";
import { peakRssMbByGroup } from "./peakRss.js";
import { quoteBody } from "./quoteBodies.js";
import { requestsListingApp } from "./requestsListingApp.js";
import type { Target } from "./target.js";

export type ScalingBenchOptions = { sizes: number[]; lookups: number; quotes: number; pages: number };
export const defaultScalingBenchOptions: ScalingBenchOptions = {
  sizes: [10_000, 100_000, 1_000_000],
  lookups: 400,
  quotes: 150,
  pages: 40,
};

// Where the seeded indexer rows go: a schema shaped like Ponder's views (this stack runs no indexer).
const BENCH_ONCHAIN_SCHEMA = "onchain_bench";

// A 90-day creation window whose ends fall inside days: the total's edge days are counted from the rows.
const now = Math.floor(Date.now() / 1000);
const WINDOW = `startTimestamp=${now - 90 * 86_400 - 4_321}&endTimestamp=${now - 3_600}`;

/** The listing cases timed at every size: the slowest page families of the requests benchmark, and totals. */
const PAGE_CASES = [
  { name: "no filter (newest first)", query: "limit=50" },
  { name: "status=pending", query: "limit=50&status=pending" },
  { name: "originChainId", query: "limit=50&originChainId=42161" },
  { name: "filters: two OR groups", query: "" },
  { name: "includeTotal + status=success", query: "limit=50&includeTotal=true&status=success" },
  {
    name: "includeTotal + status=success, 90-day window",
    query: `limit=50&includeTotal=true&status=success&${WINDOW}`,
  },
  { name: "includeTotal + originChainId", query: "limit=50&includeTotal=true&originChainId=42161" },
] as const;

/** `untargeted`: expected to grow with the table (a read of the whole history), measured to show by how much. */
type Measured = { name: string; latencyMs: Summary; plan?: string; untargeted?: true };
export type ScalingBenchResult = {
  benchmark: "scaling";
  date: string;
  commit: string;
  machine: MachineInfo;
  setup: Record<string, unknown>;
  sizes: Array<{ requests: number; seedSeconds: number; measured: Measured[] }>;
  peakRssMb: Record<string, { maxMb: number; processes: number }>;
  targets: Target[];
};

const round = (value: number) => Math.round(value * 100) / 100;
/** The id seedBenchRequests gives its g-th request. */
const seededId = (g: number) =>
  `0x${createHash("md5").update(`request${g}`).digest("hex")}${createHash("md5").update(`request:${g}`).digest("hex")}`;

/**
 * Issue 13's scaling table: the status lookup (`GET /intents/status/v3` from Postgres, no cache, random seeded
 * ids), the quote (`POST /quote/v2`, which inserts a request), the slowest `GET /requests/v3` families and the
 * reconcile's reads of unapplied chain facts (the full read untargeted: it reads the history by design), at each
 * of `sizes` stored requests. One API of startTestStack({pipeline: false}) (anvil, fresh database, no status cache);
 * for each size the request tables are emptied and seeded with schema/seedBenchRequests.ts (bulk SQL, indexes built
 * after), then each measure runs sequentially. Target: p50 at the largest size ≤ 1.5 × p50 at the smallest + 1 ms,
 * `includeTotal` included (its exact total comes from the per-day counts of migration 0150 for these filters).
 */
export async function scalingBench(
  options: ScalingBenchOptions,
  log: (line: string) => void,
): Promise<ScalingBenchResult> {
  const date = new Date();
  const machine = machineInfo();
  log("scaling: starting the API (anvil, Postgres; no indexer, worker or status cache)");
  const stack = await startTestStack({ pipeline: false, statusCache: false });
  stack.pool.on("error", (error) => log(`pool error (ignored): ${error.message}`));
  const limiter = createRedisRateLimiter("redis://127.0.0.1:6379", `bench-${randomBytes(4).toString("hex")}`);
  try {
    const cursorSecret = randomBytes(32);
    const listing = requestsListingApp(stack.pool, limiter, cursorSecret);
    const groups = encodeURIComponent(
      JSON.stringify([
        { status: ["pending", "depositing"], originChainId: 8453 },
        { failReason: "SLIPPAGE", currencyInSymbol: "usdc" },
      ]),
    );
    const queryOf = (entry: (typeof PAGE_CASES)[number]) => entry.query || `limit=50&filters=${groups}`;
    const [origin, destination] = stack.devnet.chains;
    const user = stack.devnet.accounts[0].address;

    const timed = async (run: () => Promise<void>, samples: number) => {
      await run();
      const times: number[] = [];
      for (let i = 0; i < samples; i++) {
        const started = performance.now();
        await run();
        times.push(performance.now() - started);
      }
      return summarize(times);
    };

    const sizes: ScalingBenchResult["sizes"] = [];
    for (const size of options.sizes) {
      log(`scaling: seeding ${size} requests`);
      await truncateBenchRequests(stack.pool);
      const seedStarted = performance.now();
      await seedBenchRequests(
        stack.pool,
        { requests: size, integrators: 20, chainIds: [1, 10, 8453, 42161], wallets: Math.min(100_000, size / 10) },
        (phase) => log(`  ${phase} at ${round((performance.now() - seedStarted) / 1000)} s`),
      );
      const seedSeconds = round((performance.now() - seedStarted) / 1000);
      const measured: Measured[] = [];

      let g = 0;
      measured.push({
        name: "status lookup (GET /intents/status/v3, Postgres)",
        latencyMs: await timed(async () => {
          // Spread over the whole table, so the lookups do not all hit the same cached pages.
          g = (g + 7919) % size;
          const response = await fetch(`${stack.api.url}/intents/status/v3?requestId=${seededId(g + 1)}`);
          const body = (await response.json()) as { status?: string };
          if (response.status !== 200 || !body.status) throw new Error(`status lookup: ${response.status}`);
        }, options.lookups),
      });
      log(`  status lookup p50 ${measured.at(-1)!.latencyMs.p50} ms`);

      measured.push({
        name: "quote (POST /quote/v2, native bridge; inserts a request)",
        latencyMs: await timed(async () => {
          const response = await fetch(`${stack.api.url}/quote/v2`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(quoteBody("nativeBridge", origin, destination, user)),
          });
          await response.arrayBuffer();
          if (response.status !== 200) throw new Error(`quote: ${response.status}`);
        }, options.quotes),
      });
      log(`  quote p50 ${measured.at(-1)!.latencyMs.p50} ms`);

      for (const entry of PAGE_CASES) {
        const query = queryOf(entry);
        const latencyMs = await timed(async () => {
          const response = await listing.request(`/requests/v3?${query}`, { headers: { "x-api-key": "cf_bench_1" } });
          const text = await response.text();
          if (response.status !== 200) throw new Error(`${query}: ${response.status} ${text}`);
        }, options.pages);
        const parsed = parseRequestsV3Query(
          Object.fromEntries([...new URLSearchParams(query)].map(([k, v]) => [k, [v]])),
        );
        const filter = await authorizeRequestFilter(stack.pool, parsed.filter, "integrator-1");
        const plan = query.includes("includeTotal")
          ? await explainCountRequests(stack.pool, filter)
          : await explainRequestPage(stack.pool, {
              filter,
              sortBy: parsed.sortBy,
              sortDirection: parsed.sortDirection,
              limit: parsed.limit + 1,
            });
        measured.push({ name: `GET /requests/v3 ${entry.name}`, latencyMs, plan });
        log(`  ${entry.name} p50 ${latencyMs.p50} ms`);
      }
      // Ponder's rows for the seeded deposits and fills, all applied: what every reconcile pass reads past.
      await seedBenchChainFacts(stack.pool, BENCH_ONCHAIN_SCHEMA);
      for (const [name, window] of [
        [
          "reconcile: unapplied deposits and fills of the last 5 minutes (every pass)",
          { recentSeconds: DEFAULT_FACT_WINDOWS.recentSeconds },
        ],
        ["reconcile: unapplied deposits and fills, full read (first pass, then every 30 s)", {}],
      ] as const) {
        const latencyMs = await timed(async () => {
          const found = await Promise.all([
            findUnappliedDeposits(stack.pool, BENCH_ONCHAIN_SCHEMA, window),
            findUnappliedFills(stack.pool, BENCH_ONCHAIN_SCHEMA, window),
          ]);
          if (found.flat().length > 0) throw new Error(`${name}: found unapplied facts in an applied history`);
        }, options.pages);
        measured.push({ name, latencyMs, ...(window.recentSeconds === undefined ? { untargeted: true } : {}) });
        log(`  ${name} p50 ${latencyMs.p50} ms`);
      }
      sizes.push({ requests: size, seedSeconds, measured });
    }
    const peakRssMb = peakRssMbByGroup();

    const smallest = sizes[0]!;
    const largest = sizes.at(-1)!;
    const targets: Target[] = smallest.measured.flatMap((first, index) => {
      const last = largest.measured[index]!;
      if (first.untargeted) return [];
      const bound = round(first.latencyMs.p50 * 1.5 + 1);
      return [
        {
          metric: `${first.name}: p50 at ${largest.requests} vs ${smallest.requests} requests (ms)`,
          target: `≤ ${bound} (1.5 × ${first.latencyMs.p50} + 1)`,
          measured: last.latencyMs.p50,
          met: last.latencyMs.p50 <= bound,
        },
      ];
    });
    return {
      benchmark: "scaling",
      date: date.toISOString(),
      commit: gitCommit(),
      machine,
      setup: {
        stack:
          "startTestStack({pipeline: false, statusCache: false}): 2 anvil chains, fresh Postgres database, the API in the bench process; GET /requests/v3 through its route in process (Redis rate limiter, limits raised) as bench/requestsBench.ts does",
        seed: "schema/seedBenchRequests.ts per size after emptying the request tables (20 integrators, 4 chains, all statuses, a year of creation times), then schema/seedBenchChainFacts.ts (an indexer row for each deposit and fill, all applied)",
        samples: `sequential; ${options.lookups} status lookups (ids spread over the table), ${options.quotes} quotes, ${options.pages} pages per listing case and per reconcile read, after one warm-up call each`,
        ...options,
      },
      sizes,
      peakRssMb,
      targets,
    };
  } finally {
    await limiter.close();
    await stack.stop();
  }
}
