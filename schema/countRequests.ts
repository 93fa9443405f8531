import type { FieldKey, RequestFilter } from "./requestFilter.js";
import { Params, explainSql, listingWhereSql, whereSql } from "./requestsQuery.js";
import type { Queryable } from "./queryable.js";

const DAY_SECONDS = 86_400;

/**
 * The fields each count projection of migration 0150 (per day, and its `_monthly` copy) keeps, under the listing's column names: a filter
 * on these alone reads the same WHERE against the counts. (`id` is never covered, so includeChildRequests only
 * decides whether child buckets count.)
 */
const PROJECTIONS: Array<{ table: string; fields: ReadonlySet<FieldKey>; integrator: boolean }> = [
  {
    table: "crossfill.request_counts_by_chain",
    fields: new Set([
      "status",
      "failReason",
      "originChainId",
      "destinationChainId",
      "chainId",
      "currencyInChainId",
      "currencyOutChainId",
    ]),
    integrator: false,
  },
  { table: "crossfill.request_counts_by_key", fields: new Set(["status", "apiKey"]), integrator: true },
];

const unbounded = (range: { min?: unknown; max?: unknown }) => range.min === undefined && range.max === undefined;

/** The projection whose columns answer every condition of the filter, or none (then the rows are counted). */
function projectionFor(filter: RequestFilter): (typeof PROJECTIONS)[number] | undefined {
  const { term, features, originBlock, amountUsd, appFeesUsd, fillTimeSeconds } = filter;
  if (term !== undefined || features.length > 0) return undefined;
  if (![originBlock, amountUsd, appFeesUsd, fillTimeSeconds].every(unbounded)) return undefined;
  const fields = [...filter.conditions, ...filter.groups.flat()].map((condition) => condition.field);
  return PROJECTIONS.find(
    (projection) =>
      (filter.integrator === undefined || projection.integrator) &&
      fields.every((field) => projection.fields.has(field)),
  );
}

/** The SQL of the listing's COUNT(*) over the matching rows. */
export function requestCountSql(filter: RequestFilter): { text: string; values: unknown[] } {
  const params = new Params();
  const where = listingWhereSql(filter, params);
  return {
    text: `SELECT count(*)::bigint AS total FROM crossfill.requests r ${where.length ? `WHERE ${where.join(" AND ")}` : ""}`,
    values: params.values,
  };
}

type Edge = { sign: "+" | "-"; createdAt: { min: number; max: number } };

/**
 * A creation window as the UTC days [from, to) the counts answer (UTC midnights are multiples of a day, as
 * date_bin's buckets) and the rows added or taken away at each end. An end inside a day either counts that day's
 * rows on the window's side, or takes the whole day's bucket and subtracts the rows on the other side, whichever
 * spans less of the day: each end reads at most half a day of rows.
 */
function splitWindow(min: number | undefined, max: number | undefined): { from?: number; to?: number; edges: Edge[] } {
  const edges: Edge[] = [];
  let from: number | undefined;
  let to: number | undefined;
  if (min !== undefined) {
    const day = Math.floor(min / DAY_SECONDS) * DAY_SECONDS;
    if (min === day) from = day;
    else if (day + DAY_SECONDS - min <= DAY_SECONDS / 2) {
      from = day + DAY_SECONDS;
      edges.push({ sign: "+", createdAt: { min, max: from - 1 } });
    } else {
      from = day;
      edges.push({ sign: "-", createdAt: { min: day, max: min - 1 } });
    }
  }
  if (max !== undefined) {
    const end = max + 1;
    const day = Math.floor(end / DAY_SECONDS) * DAY_SECONDS;
    if (end === day) to = day;
    else if (end - day <= DAY_SECONDS / 2) {
      to = day;
      edges.push({ sign: "+", createdAt: { min: day, max } });
    } else {
      to = day + DAY_SECONDS;
      edges.push({ sign: "-", createdAt: { min: end, max: to - 1 } });
    }
  }
  return { from, to, edges };
}

const monthStart = (seconds: number, months = 0) => {
  const date = new Date(seconds * 1000);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1) / 1000;
};

/**
 * Where the days [from, to) are counted: whole UTC months from the projection's monthly copy, the days around
 * them from the daily one, and the changes not yet folded (kept by day) over the whole range.
 */
function dayRanges(daily: string, from: number | undefined, to: number | undefined) {
  const ranges: Array<{ table: string; min?: number; max?: number }> = [];
  const monthsFrom = from === undefined ? undefined : monthStart(from) === from ? from : monthStart(from, 1);
  const monthsTo = to === undefined ? undefined : monthStart(to);
  if (monthsFrom !== undefined && monthsTo !== undefined && monthsFrom >= monthsTo)
    ranges.push({ table: daily, min: from, max: to });
  else {
    if (from !== undefined && from < monthsFrom!) ranges.push({ table: daily, min: from, max: monthsFrom });
    ranges.push({ table: `${daily}_monthly`, min: monthsFrom, max: monthsTo });
    if (to !== undefined && monthsTo! < to) ranges.push({ table: daily, min: monthsTo, max: to });
  }
  return [...ranges, { table: "crossfill.request_count_changes", min: from, max: to }];
}

/**
 * The SQL of the exact total: for a filter a count projection covers, the UTC days of the creation window from
 * the counts (folded buckets plus the changes not yet folded, one snapshot) and the partial days at either end
 * from the rows (splitWindow); otherwise COUNT(*) over the matching rows. Same number either way.
 */
export function requestTotalSql(filter: RequestFilter): { text: string; values: unknown[] } {
  const projection = projectionFor(filter);
  const { min, max } = filter.createdAt;
  // An empty window (its start after its end) counts no rows; the signed sum of its parts would not be 0.
  if (!projection || (min !== undefined && max !== undefined && min > max)) return requestCountSql(filter);
  const { from, to, edges } = splitWindow(min, max);

  const params = new Params();
  const where = whereSql({ ...filter, createdAt: {} }, params);
  if (!filter.includeChildRequests) where.push("NOT r.child");
  const buckets = dayRanges(projection.table, from, to).map(({ table, min, max }) => {
    const days = [...where];
    if (min !== undefined) days.push(`r.day >= to_timestamp(${params.add(min, "bigint")})`);
    if (max !== undefined) days.push(`r.day < to_timestamp(${params.add(max, "bigint")})`);
    return `SELECT n FROM ${table} r${days.length ? ` WHERE ${days.join(" AND ")}` : ""}`;
  });
  let text = `(SELECT coalesce(sum(n), 0) FROM (${buckets.join("\n      UNION ALL ")}) AS buckets)`;
  for (const edge of edges)
    text += ` ${edge.sign} (SELECT count(*) FROM crossfill.requests r WHERE ${listingWhereSql({ ...filter, createdAt: edge.createdAt }, params).join(" AND ")})`;
  return { text: `SELECT (${text})::bigint AS total`, values: params.values };
}

/** The exact number of requests matching the filter, independent of paging (GET /requests/v3 `includeTotal`). */
export async function countRequests(db: Queryable, filter: RequestFilter): Promise<number> {
  const { rows } = await db.query<{ total: string }>(requestTotalSql(filter));
  return Number(rows[0]!.total);
}

/** The plan of countRequests' statement, for the benchmarks' record. */
export async function explainCountRequests(db: Queryable, filter: RequestFilter): Promise<string> {
  return explainSql(db, requestTotalSql(filter));
}
