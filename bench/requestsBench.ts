/**
 * GET /requests/v3 over 1,000,000 seeded requests: p50/p95 of a 50-row page per filter family, `term` by tx
 * hash, a two-group `filters` query, deep cursor pages and `includeTotal`, through the real route in process
 * (key lookup, rate limiter, parsing, SQL, record building, JSON). Also records each case's query plan.
 *
 *   npx tsx bench/requestsBench.ts [--requests=1000000] [--samples=40] [--keep] [--limiter=postgres]
 * Targets (issue 3): p95 ≤ 20 ms for pages and term, ≤ 300 ms with includeTotal; seeding under 2 minutes.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { migrate } from "../schema/migrate.js";
import { explainCountRequests } from "../schema/countRequests.js";
import { explainRequestPage } from "../schema/requestsQuery.js";
import { seedBenchRequests } from "../schema/seedBenchRequests.js";
import { createPostgresRateLimiter, createRedisRateLimiter } from "../src/gateway/http/rateLimiter.js";
import { authorizeRequestFilter } from "../src/requests/authorizeRequestFilter.js";
import { decodeCursor } from "../src/requests/continuationCursor.js";
import { parseRequestsV3Query } from "../src/gateway/rest/parseRequestsQuery.js";
import { createTestDatabase } from "../test/support/testDatabase.js";
import { gitCommit, machineInfo } from "./machineInfo.js";
import { requestsListingApp } from "./requestsListingApp.js";
import type { Target } from "./target.js";

/** `redisUrl`: rate-limit counters on Redis as in production; without it they go to Postgres (the embedded mode). */
export type RequestsBenchOptions = { requests: number; samples: number; keep: boolean; redisUrl?: string };
export const defaultRequestsBenchOptions: RequestsBenchOptions = {
  requests: 1_000_000,
  samples: 40,
  keep: false,
  redisUrl: "redis://127.0.0.1:6379",
};

type CaseResult = {
  name: string;
  query: string;
  target: number;
  p50: number;
  p95: number;
  max: number;
  rows: number;
  bytes: number;
  plan: string;
};

const KEY = "cf_bench_1";
const CHAINS = [1, 10, 8453, 42161];

/** Nearest-rank percentile of ascending samples. */
const rank = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1];
const round = (value: number) => Math.round(value * 100) / 100;

export type RequestsBenchResult = Awaited<ReturnType<typeof requestsBench>>;

export async function requestsBench(options: RequestsBenchOptions = defaultRequestsBenchOptions) {
  const date = new Date().toISOString();
  const machine = machineInfo();
  const db = await createTestDatabase("crossfill_bench");
  const pool = new pg.Pool({ connectionString: db.url, max: 8 });
  let closeLimiter = async () => undefined as void;
  try {
    await migrate(pool);
    const seedStarted = performance.now();
    await seedBenchRequests(
      pool,
      { requests: options.requests, integrators: 20, chainIds: CHAINS, wallets: 100_000 },
      (phase) => process.stderr.write(`  ${phase} at ${round((performance.now() - seedStarted) / 1000)} s\n`),
    );
    const seedSeconds = round((performance.now() - seedStarted) / 1000);
    process.stderr.write(`seeded ${options.requests} requests in ${seedSeconds} s\n`);

    const cursorSecret = randomBytes(32);
    const limiter = options.redisUrl
      ? createRedisRateLimiter(options.redisUrl, `bench-${randomBytes(4).toString("hex")}`)
      : createPostgresRateLimiter(pool);
    closeLimiter = () => limiter.close();
    const app = requestsListingApp(pool, limiter, cursorSecret);
    // Timed until the answer's last byte: parsing it is the client's work, not the route's (before 2026-11-23
    // the client's JSON.parse was inside the timing, ~2 ms of a 50-record page).
    const call = async (query: string, key = KEY) => {
      const started = performance.now();
      const response = await app.request(`/requests/v3?${query}`, { headers: { "x-api-key": key } });
      const text = await response.text();
      const ms = performance.now() - started;
      const body = JSON.parse(text) as {
        requests: Array<Record<string, any>>;
        continuation: string | null;
        total?: number;
        message?: string;
      };
      if (response.status !== 200) throw new Error(`${query}: ${response.status} ${body.message}`);
      return { ms, body, bytes: Buffer.byteLength(text) };
    };

    // Real values to search for, taken from the data itself.
    const sample = (await call("limit=50&status=success")).body.requests;
    const someone = sample[7];
    const depositHash = sample[11].data.inTxs[0].txHash as string;
    const fillHash = sample[13].data.outTxs[0].txHash as string;
    const now = Math.floor(Date.now() / 1000);
    const groups = encodeURIComponent(
      JSON.stringify([
        { status: ["pending", "depositing"], originChainId: 8453 },
        { failReason: "SLIPPAGE", currencyInSymbol: "usdc" },
      ]),
    );

    const PAGE = 20;
    const cases: Array<{ name: string; query: string; target: number; key?: string }> = [
      { name: "no filter (newest first)", query: "limit=50", target: PAGE },
      { name: "status=pending", query: "limit=50&status=pending", target: PAGE },
      { name: "status=failure", query: "limit=50&status=failure", target: PAGE },
      { name: "originChainId", query: "limit=50&originChainId=42161", target: PAGE },
      { name: "chainId (either side)", query: "limit=50&chainId=10", target: PAGE },
      { name: "user", query: `limit=50&user=${someone.user}`, target: PAGE },
      { name: "recipient", query: `limit=50&recipient=${someone.recipient}`, target: PAGE },
      { name: "currencyInSymbol", query: "limit=50&currencyInSymbol=weth", target: PAGE },
      {
        name: "currencyOutAddress",
        query: `limit=50&currencyOutAddress=${someone.data.route.quoted.destination.outputCurrency.currency.address ?? "0x0000000000000000000000000000000000000000"}`,
        target: PAGE,
      },
      { name: "requestType=Call", query: "limit=50&requestType=Call", target: PAGE },
      { name: "failReason", query: "limit=50&failReason=ORDER_EXPIRED", target: PAGE },
      { name: "refundFailReason", query: "limit=50&refundFailReason=MANUAL_REFUND_REQUIRED", target: PAGE },
      { name: "apiKey + referrer", query: "limit=50&apiKey=key_bench_1&referrer=app-1.web", target: PAGE },
      { name: "apiKey of a small integrator", query: "limit=50&apiKey=key_bench_20", target: PAGE, key: "cf_bench_20" },
      {
        name: "time range (one week, 6 months ago)",
        query: `limit=50&startTimestamp=${now - 190 * 86400}&endTimestamp=${now - 183 * 86400}`,
        target: PAGE,
      },
      { name: "amountUsd range", query: "limit=50&amountUsdMin=10000&amountUsdMax=20000", target: PAGE },
      { name: "sortBy=amountUsd", query: "limit=50&sortBy=amountUsd&sortDirection=desc", target: PAGE },
      { name: "features=app_fees", query: "limit=50&features=app_fees", target: PAGE },
      {
        name: "startBlock/endBlock",
        query: `limit=50&startBlock=${Number(sample[3].data.inTxs[0].block) - 5000}&endBlock=${sample[3].data.inTxs[0].block}`,
        target: PAGE,
      },
      { name: "fillTime range", query: "limit=50&fillTimeMin=40&fillTimeMax=42", target: PAGE },
      { name: "depositTxHash", query: `limit=50&depositTxHash=${depositHash}`, target: PAGE },
      { name: "term = deposit tx hash", query: `limit=50&term=${depositHash}`, target: PAGE },
      { name: "term = fill tx hash", query: `limit=50&term=${fillHash}`, target: PAGE },
      { name: "term = wallet", query: `limit=50&term=${someone.user}`, target: PAGE },
      { name: "term = request id", query: `limit=50&term=${someone.id}`, target: PAGE },
      { name: "filters: two OR groups", query: `limit=50&filters=${groups}`, target: PAGE },
      { name: "includeTotal (no filter)", query: "limit=50&includeTotal=true", target: 300 },
      { name: "includeTotal + status=success", query: "limit=50&includeTotal=true&status=success", target: 300 },
      { name: "includeTotal + chainId", query: "limit=50&includeTotal=true&chainId=10", target: 300 },
    ];

    const results: CaseResult[] = [];
    const plan = async (query: string, count = false, integrator = "integrator-1") => {
      const parsed = parseRequestsV3Query(
        Object.fromEntries([...new URLSearchParams(query)].map(([k, v]) => [k, [v]])),
      );
      const filter = await authorizeRequestFilter(pool, parsed.filter, integrator);
      const sort = { sortBy: parsed.sortBy, sortDirection: parsed.sortDirection };
      const after = parsed.continuation ? decodeCursor(cursorSecret, sort, parsed.continuation) : undefined;
      return count
        ? explainCountRequests(pool, filter)
        : explainRequestPage(pool, { filter, ...sort, limit: parsed.limit + 1, after });
    };
    for (const entry of cases) {
      await call(entry.query, entry.key); // warm the plan cache and pages once
      const times: number[] = [];
      let rows = 0;
      let bytes = 0;
      for (let i = 0; i < options.samples; i++) {
        const answer = await call(entry.query, entry.key);
        times.push(answer.ms);
        rows = answer.body.requests.length;
        bytes = answer.bytes;
      }
      times.sort((a, b) => a - b);
      const integrator = entry.key ? `integrator-${entry.key.split("_").at(-1)}` : undefined;
      const text =
        (await plan(entry.query, false, integrator)) +
        (entry.query.includes("includeTotal") ? `\n-- count:\n${await plan(entry.query, true)}` : "");
      const { key: _key, ...shown } = entry;
      results.push({
        ...shown,
        p50: round(rank(times, 50)),
        p95: round(rank(times, 95)),
        max: round(times.at(-1)!),
        rows,
        bytes,
        plan: text,
      });
      process.stderr.write(
        `${entry.name.padEnd(40)} p50 ${rank(times, 50).toFixed(2)} ms  p95 ${rank(times, 95).toFixed(2)} ms  rows ${rows}  ${bytes} bytes\n`,
      );
    }

    // Deep pages: follow the cursor 200 pages (10,000 rows) down, newest first and by amount.
    for (const [name, base] of [
      ["deep cursor pages (createdAt desc)", "limit=50"],
      ["deep cursor pages (amountUsd asc)", "limit=50&sortBy=amountUsd"],
    ] as const) {
      const times: number[] = [];
      let continuation: string | null = null;
      let lastQuery: string = base;
      let bytes = 0;
      for (let page = 0; page < 200; page++) {
        lastQuery = `${base}${continuation ? `&continuation=${encodeURIComponent(continuation)}` : ""}`;
        const answer = await call(lastQuery);
        times.push(answer.ms);
        continuation = answer.body.continuation;
        bytes = answer.bytes;
      }
      times.sort((a, b) => a - b);
      results.push({
        name,
        query: `${base} (pages 1–200)`,
        target: PAGE,
        p50: round(rank(times, 50)),
        p95: round(rank(times, 95)),
        max: round(times.at(-1)!),
        rows: 50,
        bytes,
        plan: await plan(lastQuery),
      });
      process.stderr.write(
        `${name.padEnd(40)} p50 ${rank(times, 50).toFixed(2)} ms  p95 ${rank(times, 95).toFixed(2)} ms\n`,
      );
    }
    const targets: Target[] = [
      {
        metric: `seed ${options.requests} requests (s)`,
        target: "< 120",
        measured: seedSeconds,
        met: seedSeconds < 120,
      },
      ...results.map((r) => ({
        metric: `${r.name} p95 (ms)`,
        target: `≤ ${r.target}`,
        measured: r.p95,
        met: r.p95 <= r.target,
      })),
    ];
    return {
      benchmark: "requests" as const,
      date,
      commit: gitCommit(),
      machine,
      requests: options.requests,
      seedSeconds,
      samples: options.samples,
      limiter: limiter.kind,
      results,
      targets,
    };
  } finally {
    await closeLimiter();
    await pool.end();
    if (!options.keep) await db.drop();
    else process.stderr.write(`kept database ${db.url}\n`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const flag = (name: string) => process.argv.find((arg) => arg.startsWith(`--${name}`))?.split("=")[1];
  const result = await requestsBench({
    requests: Number(flag("requests") ?? defaultRequestsBenchOptions.requests),
    samples: Number(flag("samples") ?? defaultRequestsBenchOptions.samples),
    keep: process.argv.includes("--keep"),
    redisUrl: flag("limiter") === "postgres" ? undefined : defaultRequestsBenchOptions.redisUrl,
  });
  mkdirSync(new URL("./results/", import.meta.url), { recursive: true });
  const file = new URL(`./results/requests-${new Date().toISOString().replace(/[:.]/g, "-")}.json`, import.meta.url);
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  process.stderr.write(`wrote ${file.pathname}\n`);
  const failing = result.results.filter((entry) => entry.p95 > entry.target);
  process.stderr.write(
    failing.length
      ? `over target: ${failing.map((entry) => entry.name).join(", ")}\n`
      : "every case within its target\n",
  );
}
