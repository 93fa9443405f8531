import type { RequestFilter } from "../src/requests/requestFilter.js";
import type { Queryable } from "./requests.js";
import { Params, whereSql } from "./requestsQuery.js";

/** What requestStats can group by; DAY and HOUR are UTC buckets of the creation time. */
export const REQUEST_STATS_GROUPS = ["ORIGIN_CHAIN", "DESTINATION_CHAIN", "STATUS", "CURRENCY_IN", "FAIL_REASON", "DAY", "HOUR"] as const;
export type RequestStatsGroup = (typeof REQUEST_STATS_GROUPS)[number];

const GROUP_SQL: Record<RequestStatsGroup, { expression: string; alias: string }> = {
  ORIGIN_CHAIN: { expression: "r.origin_chain_id", alias: "origin_chain_id" },
  DESTINATION_CHAIN: { expression: "r.destination_chain_id", alias: "destination_chain_id" },
  STATUS: { expression: "r.status", alias: "status" },
  CURRENCY_IN: { expression: "r.currency_in_symbol", alias: "currency_in_symbol" },
  FAIL_REASON: { expression: "r.fail_reason", alias: "fail_reason" },
  DAY: { expression: "date_trunc('day', r.created_at, 'UTC')", alias: "day" },
  HOUR: { expression: "date_trunc('hour', r.created_at, 'UTC')", alias: "hour" },
};

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

export function requestStatsSql(query: RequestStatsQuery): { text: string; values: unknown[] } {
  const params = new Params();
  const where = [
    `r.created_at >= ${params.add(query.from.toISOString(), "timestamptz")}`,
    `r.created_at < ${params.add(query.to.toISOString(), "timestamptz")}`,
    ...whereSql(query.filter, params),
  ];
  const groups = query.groupBy.map((group) => GROUP_SQL[group]);
  const keys = groups.map((group) => `${group.expression} AS ${group.alias}`);
  const positions = groups.map((_, index) => String(index + 1));
  // One ordered-set aggregate for both percentiles: one sort of each bucket's fill times, not two.
  const text = `
    SELECT ${[...keys, ""].join(", ")}
           count(*) AS count,
           coalesce(sum(r.amount_usd), 0)::text AS volume_usd,
           coalesce(sum(r.amount_usd) FILTER (WHERE r.status = 'success'), 0)::text AS filled_volume_usd,
           count(*) FILTER (WHERE r.status = 'success') AS successes,
           count(*) FILTER (WHERE r.status IN ${FINISHED}) AS finished,
           percentile_cont(ARRAY[0.5, 0.95]) WITHIN GROUP (ORDER BY r.fill_seconds) AS fill_seconds,
           coalesce(sum(r.fees_usd) FILTER (WHERE r.status = 'success'), 0)::text AS fees_usd
      FROM crossfill.requests r
     WHERE ${where.join("\n       AND ")}
     ${positions.length ? `GROUP BY ${positions.join(", ")} ORDER BY ${positions.map((position) => `${position} NULLS LAST`).join(", ")}` : ""}`;
  return { text, values: params.values };
}

type StatsRow = {
  origin_chain_id?: string | null;
  destination_chain_id?: string | null;
  status?: string | null;
  currency_in_symbol?: string | null;
  fail_reason?: string | null;
  day?: Date | null;
  hour?: Date | null;
  count: string;
  volume_usd: string;
  filled_volume_usd: string;
  successes: string;
  finished: string;
  fill_seconds: Array<number | null> | null;
  fees_usd: string;
};

/** successes / finished as a 6-decimal string, in bigint arithmetic (no float rounding). */
function ratio(numerator: bigint, denominator: bigint): string | null {
  if (denominator === 0n) return null;
  const scaled = (numerator * 2_000_000n + denominator) / (2n * denominator);
  return `${scaled / 1_000_000n}.${(scaled % 1_000_000n).toString().padStart(6, "0")}`;
}

// percentile_cont interpolates in float8 (18.499999999999996 for 18.5): report whole milliseconds.
const seconds = (value: number | null | undefined) => (value === null || value === undefined ? null : Math.round(value * 1000) / 1000);

const chainId = (value: string | null | undefined) => (value === null || value === undefined ? null : Number(value));

/** Counts, volumes, success rate, fill-time percentiles and fees per bucket of the requests created in the window. */
export async function requestStats(db: Queryable, query: RequestStatsQuery): Promise<RequestStatsBucket[]> {
  const { text, values } = requestStatsSql(query);
  const { rows } = await db.query<StatsRow>(text, values);
  return rows.map((row) => ({
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
    fillSecondsP50: seconds(row.fill_seconds?.[0]),
    fillSecondsP95: seconds(row.fill_seconds?.[1]),
    feesUsd: row.fees_usd,
  }));
}

/** The plan Postgres runs (EXPLAIN ANALYZE, text), for the benchmark's record. */
export async function explainRequestStats(db: Queryable, query: RequestStatsQuery): Promise<string> {
  const { text, values } = requestStatsSql(query);
  const { rows } = await db.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, SUMMARY ON) ${text}`, values);
  return rows.map((row) => row["QUERY PLAN"]).join("\n");
}
