import pg from "pg";
import type { FieldKey, RequestFilter } from "./requestFilter.js";
import type { Queryable } from "./queryable.js";
import { Params, whereSql } from "./requestsQuery.js";
import { withTransaction } from "./withTransaction.js";

/** What requestStats can group by; DAY and HOUR are UTC buckets of the creation time. */
export const REQUEST_STATS_GROUPS = [
  "ORIGIN_CHAIN",
  "DESTINATION_CHAIN",
  "STATUS",
  "CURRENCY_IN",
  "FAIL_REASON",
  "DAY",
  "HOUR",
] as const;
export type RequestStatsGroup = (typeof REQUEST_STATS_GROUPS)[number];

// DAY and HOUR have no per-row expression: groupedRows enumerates their buckets.
type TimeGroup = "DAY" | "HOUR";
const GROUP_SQL: Record<Exclude<RequestStatsGroup, TimeGroup>, { expression: string; alias: string }> &
  Record<TimeGroup, { alias: string }> = {
  ORIGIN_CHAIN: { expression: "r.origin_chain_id", alias: "origin_chain_id" },
  DESTINATION_CHAIN: { expression: "r.destination_chain_id", alias: "destination_chain_id" },
  STATUS: { expression: "r.status", alias: "status" },
  CURRENCY_IN: { expression: "r.currency_in_symbol", alias: "currency_in_symbol" },
  FAIL_REASON: { expression: "r.fail_reason", alias: "fail_reason" },
  DAY: { alias: "day" },
  HOUR: { alias: "hour" },
};
const isTimeGroup = (group: RequestStatsGroup): group is TimeGroup => group === "DAY" || group === "HOUR";

export type RequestStatsQuery = {
  filter: RequestFilter;
  /** Creation time window, half-open: from ≤ created_at < to. */
  from: Date;
  to: Date;
  /** Distinct groups; none gives one bucket over the whole window. */
  groupBy: RequestStatsGroup[];
};

/** One bucket; keys of groups not asked for are null. Money and ratios are decimal strings computed in SQL numeric. */
export type RequestStatsBucket = {
  originChainId: number | null;
  destinationChainId: number | null;
  status: string | null;
  currencyInSymbol: string | null;
  failReason: string | null;
  day: Date | null;
  hour: Date | null;
  count: number;
  /** Quoted input value of every request in the bucket. */
  volumeUsd: string;
  /** Quoted input value of the successful ones. */
  filledVolumeUsd: string;
  successes: number;
  /** success + failure + refund: the requests that can no longer change outcome. */
  finished: number;
  /** successes / finished, 6 decimals (rounded half away from zero); null when nothing finished. */
  successRate: string | null;
  /** Deposit → fill seconds (chain timestamps) of the filled requests, continuous percentiles to the millisecond; null without fills. */
  fillSecondsP50: number | null;
  fillSecondsP95: number | null;
  /** Quoted relayer + app fees of the successful requests (the fees actually earned). */
  feesUsd: string;
};

const FINISHED = "('success', 'failure', 'refund')";

// date_bin is arithmetic on the timestamp (no time-zone lookup, unlike date_trunc(…, 'UTC')); from a UTC
// midnight it gives UTC days and hours.
const EPOCH = "timestamptz '2000-01-01 00:00:00+00'";

/**
 * The window's requests aggregated per group key and `extra` key (status, fill second), as a subquery whose
 * columns are the keys' aliases, the extras' aliases and `measures`. With a DAY or HOUR group the window's
 * buckets are enumerated and each one's time range is aggregated on its own (LATERAL: an index range scan per
 * bucket) by the other keys: no date_bin per row and a small hash table per bucket, ~20–40 % less CPU than
 * grouping a year of rows by date_bin (docs/PERFORMANCE.md). Rows are the same either way: a bucket's range is
 * clipped to the window.
 */
function groupedRows(
  query: RequestStatsQuery,
  params: Params,
  extra: Array<{ expression: string; alias: string }>,
  measures: string,
  where: string[] = [],
): string {
  const from = params.add(query.from.toISOString(), "timestamptz");
  const to = params.add(query.to.toISOString(), "timestamptz");
  const filters = [...whereSql(query.filter, params), ...where];
  const step = query.groupBy.includes("HOUR") ? "1 hour" : query.groupBy.includes("DAY") ? "1 day" : undefined;
  const select = (keys: Array<{ expression: string; alias: string }>) =>
    keys.map((key) => `${key.expression} AS ${key.alias}, `).join("");
  const groupByPositions = (count: number) => Array.from({ length: count }, (_, index) => index + 1).join(", ");
  // The keys aggregated per row: every group but the time buckets, and the extras.
  const keys = [...query.groupBy.flatMap((group) => (isTimeGroup(group) ? [] : [GROUP_SQL[group]])), ...extra];
  if (!step) {
    return `SELECT ${select(keys)}${measures}
              FROM crossfill.requests r
             WHERE ${[`r.created_at >= ${from}`, `r.created_at < ${to}`, ...filters].join("\n               AND ")}
             GROUP BY ${groupByPositions(keys.length)}`;
  }
  // HOUR buckets nest in UTC days, so with both the day is the hour's.
  const timeKeys = query.groupBy.flatMap((group) =>
    group === "DAY"
      ? [`date_bin('1 day', b.bucket, ${EPOCH}) AS day, `]
      : group === "HOUR"
        ? ["b.bucket AS hour, "]
        : [],
  );
  return `SELECT ${timeKeys.join("")}x.*
              FROM generate_series(date_bin('${step}', ${from}, ${EPOCH}), ${to} - interval '1 microsecond', interval '${step}') AS b(bucket)
             CROSS JOIN LATERAL (
                   SELECT ${select(keys)}${measures}
                     FROM crossfill.requests r
                    WHERE ${[`r.created_at >= greatest(b.bucket, ${from})`, `r.created_at < least(b.bucket + interval '${step}', ${to})`, ...filters].join("\n                      AND ")}
                    GROUP BY ${groupByPositions(keys.length)}) x`;
}

/** Filter fields the rollups hold as columns of the same name (migration 0063); any other filter reads the raw rows. */
const ROLLUP_FIELDS: ReadonlySet<FieldKey> = new Set<FieldKey>([
  "originChainId",
  "destinationChainId",
  "chainId",
  "currencyInChainId",
  "currencyOutChainId",
  "status",
  "failReason",
  "currencyInSymbol",
]);
const DAY_MS = 86_400_000;

/** Which rows answer a query: `raw` forces the requests table (the rollups' reference in tests and the bench). */
export type RequestStatsSource = "auto" | "raw";

/** Whole UTC days [fromDay, toDay) of a window. */
export type RollupDays = { fromDay: Date; toDay: Date };

/**
 * The whole UTC days of the window the daily rollups can answer, or undefined when they cannot: an HOUR
 * grouping, a filter on anything but their dimensions (the API key and integrator included), or no whole day in the window.
 */
export function rollupDays(query: RequestStatsQuery): RollupDays | undefined {
  if (query.groupBy.includes("HOUR")) return undefined;
  const { filter } = query;
  const ranges = [filter.createdAt, filter.originBlock, filter.amountUsd, filter.appFeesUsd, filter.fillTimeSeconds];
  if (
    filter.term !== undefined ||
    filter.integrator !== undefined ||
    filter.features.length > 0 ||
    ranges.some((range) => range.min !== undefined || range.max !== undefined)
  )
    return undefined;
  if (![...filter.conditions, ...filter.groups.flat()].every((condition) => ROLLUP_FIELDS.has(condition.field)))
    return undefined;
  // Epoch milliseconds count UTC days of exactly 86,400,000 ms, as date_bin's days from 2000-01-01 00:00 UTC.
  const fromDay = Math.ceil(query.from.getTime() / DAY_MS) * DAY_MS;
  const toDay = Math.floor(query.to.getTime() / DAY_MS) * DAY_MS;
  return fromDay < toDay ? { fromDay: new Date(fromDay), toDay: new Date(toDay) } : undefined;
}

const ROLLUP_DIMENSIONS = "r.origin_chain_id, r.destination_chain_id, r.status, r.currency_in_symbol, r.fail_reason";

/**
 * groupedRows' subquery answered from a rollup: its whole days (its rows and the changes not folded into them
 * yet), plus the raw rows of the partial days at either edge of the window with the same columns (count 1
 * each), aggregated together by the groups' keys. Groups whose count adds up to 0 (every row changed away) are
 * left out: their sums would still carry their scale.
 */
function rollupRows(
  query: RequestStatsQuery,
  params: Params,
  days: RollupDays,
  rollup: { table: string; columns: string },
  raw: { columns: string; where?: string },
  extra: Array<{ expression: string; alias: string }>,
  measures: string,
): string {
  const at = (date: Date) => params.add(date.toISOString(), "timestamptz");
  const sources = [rollup.table, `${rollup.table}_changes`].map(
    (table) => `SELECT r.day, ${ROLLUP_DIMENSIONS}, ${rollup.columns} FROM ${table} r
      WHERE ${[`r.day >= ${at(days.fromDay)}`, `r.day < ${at(days.toDay)}`, ...whereSql(query.filter, params)].join(" AND ")}`,
  );
  for (const [start, end] of [
    [query.from, days.fromDay],
    [days.toDay, query.to],
  ]) {
    if (start.getTime() >= end.getTime()) continue;
    const where = [
      `r.created_at >= ${at(start)}`,
      `r.created_at < ${at(end)}`,
      ...(raw.where ? [raw.where] : []),
      ...whereSql(query.filter, params),
    ];
    sources.push(
      `SELECT date_bin('1 day', r.created_at, ${EPOCH}), ${ROLLUP_DIMENSIONS}, ${raw.columns} FROM crossfill.requests r WHERE ${where.join(" AND ")}`,
    );
  }
  const keys = [
    ...(query.groupBy.includes("DAY") ? ["r.day AS day"] : []),
    ...[...query.groupBy.flatMap((group) => (isTimeGroup(group) ? [] : [GROUP_SQL[group]])), ...extra].map(
      (key) => `${key.expression} AS ${key.alias}`,
    ),
  ];
  return `SELECT ${[...keys, measures].join(", ")}
              FROM (${sources.join("\n             UNION ALL ")}) r
             GROUP BY ${keys.map((_, index) => index + 1).join(", ")}
            HAVING sum(r.n) > 0`;
}

const orderBy = (keys: string[]) =>
  keys.length ? `ORDER BY ${keys.map((key) => `${key} NULLS LAST`).join(", ")}` : "";

/**
 * Counts, volumes and fees per bucket. The rows are first hash-aggregated per bucket and status with no FILTER
 * clause (the per-row work is what a million rows cost), then the few thousand partial rows are folded per
 * bucket, with the status conditions applied to them instead.
 */
export function requestTotalsSql(
  query: RequestStatsQuery,
  source: RequestStatsSource = "auto",
): { text: string; values: unknown[] } {
  const params = new Params();
  const keys = query.groupBy.map((group) => GROUP_SQL[group].alias);
  const days = source === "auto" ? rollupDays(query) : undefined;
  const extra = [{ expression: "r.status", alias: "st" }];
  // From the rollups, partial rows also by the sums' scales (part of their key, migration 0063).
  const scales = [
    { expression: "r.volume_scale", alias: "vsc" },
    { expression: "r.fees_scale", alias: "fsc" },
  ];
  const rows = days
    ? rollupRows(
        query,
        params,
        days,
        { table: "crossfill.request_stats_daily", columns: "r.volume_scale, r.fees_scale, r.n, r.volume, r.fees" },
        { columns: "scale(r.amount_usd), scale(r.fees_usd), 1 AS n, r.amount_usd AS volume, r.fees_usd AS fees" },
        [...extra, ...scales],
        "sum(r.n) AS n, sum(r.volume) AS volume, sum(r.fees) AS fees",
      )
    : groupedRows(query, params, extra, "count(*) AS n, sum(r.amount_usd) AS volume, sum(r.fees_usd) AS fees");
  const text = `
    SELECT ${keys.map((key) => `${key}, `).join("")}
           coalesce(sum(n), 0) AS count,
           coalesce(sum(volume), 0)::text AS volume_usd,
           coalesce(sum(volume) FILTER (WHERE st = 'success'), 0)::text AS filled_volume_usd,
           coalesce(sum(n) FILTER (WHERE st = 'success'), 0) AS successes,
           coalesce(sum(n) FILTER (WHERE st IN ${FINISHED}), 0) AS finished,
           coalesce(sum(fees) FILTER (WHERE st = 'success'), 0)::text AS fees_usd
      FROM (${rows}) partial
     ${keys.length ? `GROUP BY ${keys.join(", ")}` : ""}
     ${orderBy(keys)}`;
  return { text, values: params.values };
}

/**
 * Fill-time p50/p95 per bucket without an ordered-set aggregate over the raw rows (that sorts every row and
 * rules out hashing): a count per bucket and whole second of fill time, then the percentiles read off that
 * histogram with percentile_cont's exact rule — rank h = p × (n − 1), interpolated between the values at
 * floor(h) and ceil(h) — in numeric, so 18.5 is 18.5. Buckets without fills are absent.
 */
export function requestFillTimesSql(
  query: RequestStatsQuery,
  source: RequestStatsSource = "auto",
): { text: string; values: unknown[] } {
  const params = new Params();
  const keys = query.groupBy.map((group) => GROUP_SQL[group].alias);
  const partition = keys.length ? `PARTITION BY ${keys.join(", ")}` : "";
  // n as int: the running sums below then add machine integers, not numerics
  const days = source === "auto" ? rollupDays(query) : undefined;
  const extra = [{ expression: "r.fill_seconds", alias: "fs" }];
  const histogram = days
    ? rollupRows(
        query,
        params,
        days,
        { table: "crossfill.request_fill_stats_daily", columns: "r.fill_seconds, r.n" },
        { columns: "r.fill_seconds, 1 AS n", where: "r.fill_seconds IS NOT NULL" },
        extra,
        "sum(r.n)::int AS n",
      )
    : groupedRows(query, params, extra, "count(*)::int AS n", ["r.fill_seconds IS NOT NULL"]);
  // The ranks floor(p × (n − 1)) and ceil(p × (n − 1)) in integer arithmetic (p = percent / 100): numeric
  // arithmetic on every histogram row cost more than the window sums themselves.
  const percentile = (percent: number, name: string) => `
           min(fs) FILTER (WHERE upto > (${percent} * (fills - 1)) / 100) AS ${name}_lo,
           min(fs) FILTER (WHERE upto > (${percent} * (fills - 1) + 99) / 100) AS ${name}_hi`;
  const interpolate = (percent: number, name: string) =>
    `round(${name}_lo + ((${percent} * (fills - 1)) % 100)::numeric / 100 * (${name}_hi - ${name}_lo), 3)::text AS fill_seconds_${name}`;
  const text = `
    WITH histogram AS MATERIALIZED (${histogram}),
    cumulative AS (
      SELECT histogram.*, sum(n) OVER (${partition} ORDER BY fs ROWS UNBOUNDED PRECEDING) AS upto, sum(n) OVER (${partition}) AS fills
        FROM histogram),
    buckets AS (
      SELECT ${keys.map((key) => `${key}, `).join("")}max(fills) AS fills,${percentile(50, "p50")},${percentile(95, "p95")}
        FROM cumulative
       ${keys.length ? `GROUP BY ${keys.join(", ")}` : ""})
    SELECT ${keys.map((key) => `${key}, `).join("")}${interpolate(50, "p50")}, ${interpolate(95, "p95")}
      FROM buckets
     WHERE fills IS NOT NULL`;
  return { text, values: params.values };
}

type Keys = {
  origin_chain_id?: string | null;
  destination_chain_id?: string | null;
  status?: string | null;
  currency_in_symbol?: string | null;
  fail_reason?: string | null;
  day?: Date | null;
  hour?: Date | null;
};
type TotalsRow = Keys & {
  count: string;
  volume_usd: string;
  filled_volume_usd: string;
  successes: string;
  finished: string;
  fees_usd: string;
};
type FillTimesRow = Keys & { fill_seconds_p50: string; fill_seconds_p95: string };

const keyOf = (row: Keys) =>
  JSON.stringify([
    row.origin_chain_id,
    row.destination_chain_id,
    row.status,
    row.currency_in_symbol,
    row.fail_reason,
    row.day?.getTime(),
    row.hour?.getTime(),
  ]);

/** successes / finished as a 6-decimal string, in bigint arithmetic (no float rounding). */
function ratio(numerator: bigint, denominator: bigint): string | null {
  if (denominator === 0n) return null;
  const scaled = (numerator * 2_000_000n + denominator) / (2n * denominator);
  return `${scaled / 1_000_000n}.${(scaled % 1_000_000n).toString().padStart(6, "0")}`;
}

const chainId = (value: string | null | undefined) => (value === null || value === undefined ? null : Number(value));

// Enough for the hash tables of a year by chain and day (10k bucket × status rows, 60k bucket × fill-second rows:
// 13 MB and 20 MB measured) to stay in memory; the default 4 MB makes Postgres sort a million rows on disk instead.
const STATS_WORK_MEM = "32MB";

/** Runs one read in its own transaction with the memory the aggregation needs, on a pool's own connection. */
async function withStatsMemory<T>(db: Queryable, read: (client: Queryable) => Promise<T>): Promise<T> {
  // A bare query function (a test's counting wrapper) cannot hold a transaction: it runs with the defaults.
  if (!(db instanceof pg.Pool)) return read(db);
  return withTransaction(db, async (client) => {
    await client.query(`SET TRANSACTION READ ONLY; SET LOCAL work_mem = '${STATS_WORK_MEM}'`);
    return read(client);
  });
}

/**
 * Counts, volumes, success rate, fill-time percentiles and fees per bucket of the requests created in the window.
 * Whole UTC days come from the daily rollups when every filter field is one of their dimensions and nothing is
 * grouped by HOUR (rollupDays), the rest from the raw rows; `source: "raw"` reads only the raw rows (the same
 * answer, the rollups' reference). The totals and the fill times are two queries run at once (on two pool
 * connections, so on two cores); a bucket whose requests change between them may disagree by those requests,
 * which an analytics view tolerates.
 */
export async function requestStats(
  db: Queryable,
  query: RequestStatsQuery,
  source: RequestStatsSource = "auto",
): Promise<RequestStatsBucket[]> {
  const totalsSql = requestTotalsSql(query, source);
  const fillTimesSql = requestFillTimesSql(query, source);
  const [totals, fillTimes] = await Promise.all([
    withStatsMemory(db, (client) => client.query<TotalsRow>(totalsSql.text, totalsSql.values)),
    withStatsMemory(db, (client) => client.query<FillTimesRow>(fillTimesSql.text, fillTimesSql.values)),
  ]);
  const fillTimeOf = new Map(fillTimes.rows.map((row) => [keyOf(row), row]));
  return totals.rows.map((row) => {
    const fill = fillTimeOf.get(keyOf(row));
    return {
      originChainId: chainId(row.origin_chain_id),
      destinationChainId: chainId(row.destination_chain_id),
      status: row.status ?? null,
      currencyInSymbol: row.currency_in_symbol ?? null,
      failReason: row.fail_reason ?? null,
      day: row.day ?? null,
      hour: row.hour ?? null,
      count: Number(row.count),
      volumeUsd: row.volume_usd,
      filledVolumeUsd: row.filled_volume_usd,
      successes: Number(row.successes),
      finished: Number(row.finished),
      successRate: ratio(BigInt(row.successes), BigInt(row.finished)),
      fillSecondsP50: fill ? Number(fill.fill_seconds_p50) : null,
      fillSecondsP95: fill ? Number(fill.fill_seconds_p95) : null,
      feesUsd: row.fees_usd,
    };
  });
}

/** The plans Postgres runs for both queries (EXPLAIN ANALYZE, text), for the benchmark's record. */
export async function explainRequestStats(
  db: Queryable,
  query: RequestStatsQuery,
  source: RequestStatsSource = "auto",
): Promise<string> {
  const plans: string[] = [];
  for (const [name, sql] of [
    ["totals", requestTotalsSql(query, source)],
    ["fill times", requestFillTimesSql(query, source)],
  ] as const) {
    const { rows } = await withStatsMemory(db, (client) =>
      client.query<{ "QUERY PLAN": string }>(
        `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, SUMMARY ON) ${sql.text}`,
        sql.values,
      ),
    );
    plans.push(`-- ${name}\n${rows.map((row) => row["QUERY PLAN"]).join("\n")}`);
  }
  return plans.join("\n\n");
}
