import { searchTerm } from "./searchTerm.js";
import { InvalidInputError } from "../../domain/errors.js";
import { FEATURES, MAX_UNIX_SECONDS, fieldValue } from "./fieldValues.js";
import { v3QuerySchema } from "./requestsQuerySchemas.js";
import { validateQuery } from "../http/validateQuery.js";
import {
  FIELD_KEYS,
  type FieldCondition,
  type FieldKey,
  type Range,
  type RequestFilter,
  SORT_KEYS,
  type SortDirection,
  type SortKey,
  emptyFilter,
} from "../../../schema/requestFilter.js";

export type ParsedRequestsQuery = {
  filter: RequestFilter;
  sortBy: SortKey;
  sortDirection: SortDirection;
  limit: number;
  continuation?: string;
  includeTotal: boolean;
  includeAuthenticatedData: boolean;
  privateChainsToInclude: string[];
};

export const V3_LIMIT = { default: 20, min: 1, max: 50 } as const;
const MAX_GROUPS = 20;
const MAX_KEYS_PER_GROUP = 30;
const MAX_VALUES = 100;
const RANGE_PARAMETERS = [
  "startTimestamp",
  "endTimestamp",
  "startBlock",
  "endBlock",
  "amountUsdMin",
  "amountUsdMax",
  "appFeesAmountUsdMin",
  "appFeesAmountUsdMax",
  "fillTimeMin",
  "fillTimeMax",
] as const;
const OTHER_PARAMETERS = [
  "limit",
  "continuation",
  "includeTotal",
  "term",
  "privateChainsToInclude",
  "features",
  "includeChildRequests",
  "filters",
  "sortBy",
  "sortDirection",
  "includeAuthenticatedData",
] as const;
/** Every parameter GET /requests/v3 accepts; anything else is refused by name. */
export const V3_PARAMETERS: readonly string[] = [...FIELD_KEYS, ...RANGE_PARAMETERS, ...OTHER_PARAMETERS];

function bad(parameter: string, message: string): never {
  throw new InvalidInputError("INVALID_INPUT", `${parameter}: ${message}`);
}

/** A comma-separated list of UUIDs (lower-cased); absent → empty. */
export function uuidListParameter(name: string, raw: string | undefined): string[] {
  if (raw === undefined) return [];
  return raw.split(",").map((id) => {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id.trim()))
      bad(name, "must be comma-separated UUIDs");
    return id.trim().toLowerCase();
  });
}

export function booleanParameter(parameter: string, value: string | undefined): boolean {
  if (value === undefined) return false;
  if (value === "true") return true;
  if (value === "false") return false;
  bad(parameter, "must be true or false");
}

export function integerParameter(parameter: string, value: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^-?\d+$/.test(value.trim())) bad(parameter, "must be an integer");
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < min || number > max)
    bad(parameter, `must be between ${min} and ${max}`);
  return number;
}

function decimalParameter(parameter: string, value: string): string {
  if (!/^\d{1,30}(\.\d{1,18})?$/.test(value.trim())) bad(parameter, "must be a non-negative decimal number");
  return value.trim();
}

function range<T>(
  minName: string,
  maxName: string,
  min: T | undefined,
  max: T | undefined,
  compare: (a: T, b: T) => number,
): Range<T> {
  if (min !== undefined && max !== undefined && compare(min, max) > 0) bad(minName, `must not exceed ${maxName}`);
  return { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
}

const compareDecimal = (a: string, b: string) => {
  const [ai, af = ""] = a.split(".");
  const [bi, bf = ""] = b.split(".");
  const width = Math.max(af.length, bf.length);
  const left = BigInt(ai + af.padEnd(width, "0"));
  const right = BigInt(bi + bf.padEnd(width, "0"));
  return left < right ? -1 : left > right ? 1 : 0;
};

/** Parses one `filters` key (`[not:]field`) and its value (scalar, array, or null). */
function groupCondition(rawKey: string, value: unknown, where: string): FieldCondition {
  const negate = rawKey.startsWith("not:");
  const key = negate ? rawKey.slice(4) : rawKey;
  const parameter = `filters${where}.${rawKey}`;
  if ((RANGE_PARAMETERS as readonly string[]).includes(key) || key === "features") {
    bad(parameter, `${key} is a top-level parameter only; it cannot be used inside filters`);
  }
  if (!(FIELD_KEYS as readonly string[]).includes(key))
    bad(parameter, `unknown filter key; recognised keys: ${FIELD_KEYS.join(", ")}`);
  const field = key as FieldKey;
  if (value === null) return { field, negate, values: null };
  if (Array.isArray(value)) {
    if (value.length === 0) bad(parameter, "an array needs at least one value");
    if (value.length > MAX_VALUES) bad(parameter, `at most ${MAX_VALUES} values`);
    if (value.includes(null)) {
      if (value.length === 1) return { field, negate, values: null };
      bad(parameter, "null cannot be mixed with values; use a separate group for the null check");
    }
    return { field, negate, values: value.map((item) => fieldValue(field, parameter, item)) };
  }
  if (typeof value === "object") bad(parameter, "expected a value, an array of values, or null");
  return { field, negate, values: [fieldValue(field, parameter, value)] };
}

/** `filters`: a JSON array of groups; fields AND-ed within a group, groups OR-ed. */
export function parseFiltersParameter(raw: string): FieldCondition[][] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    bad("filters", "must be a JSON-encoded array of objects");
  }
  if (!Array.isArray(parsed)) bad("filters", "must be a JSON array of groups (objects)");
  if (parsed.length > MAX_GROUPS) bad("filters", `at most ${MAX_GROUPS} groups`);
  return parsed.map((group, index) => {
    if (group === null || typeof group !== "object" || Array.isArray(group))
      bad(`filters[${index}]`, "each group must be an object");
    const entries = Object.entries(group as Record<string, unknown>);
    if (entries.length === 0) bad(`filters[${index}]`, "a group needs at least one key");
    if (entries.length > MAX_KEYS_PER_GROUP) bad(`filters[${index}]`, `at most ${MAX_KEYS_PER_GROUP} keys per group`);
    return entries.map(([key, value]) => groupCondition(key, value, `[${index}]`));
  });
}

/** Query parameters of GET /requests/v3 (each name at most once) → the typed query; 400 naming the parameter otherwise. */
export function parseRequestsV3Query(params: Record<string, string[]>): ParsedRequestsQuery {
  if ("hash" in params)
    bad(
      "hash",
      "was removed; use term (any request id, wallet, deposit address or tx hash) or depositTxHash/fillTxHash/refundTxHash",
    );
  for (const name of Object.keys(params)) {
    if (!V3_PARAMETERS.includes(name)) bad(name, "unknown parameter");
  }
  validateQuery(v3QuerySchema, params);
  const get = (name: string): string | undefined => params[name]?.[0];
  const filter = emptyFilter();

  for (const field of FIELD_KEYS) {
    const raw = get(field);
    if (raw === undefined) continue;
    // apiKey takes a comma-separated list; every other field one value.
    const values = field === "apiKey" ? raw.split(",").map((part) => part.trim()) : [raw];
    if (field === "apiKey" && values.length > MAX_VALUES) bad("apiKey", `at most ${MAX_VALUES} keys`);
    filter.conditions.push({ field, negate: false, values: values.map((value) => fieldValue(field, field, value)) });
  }
  const filters = get("filters");
  if (filters !== undefined) filter.groups = parseFiltersParameter(filters);

  const term = get("term");
  if (term !== undefined) {
    if (term.trim() === "" || term.length > 200) bad("term", "must be a non-empty string of at most 200 characters");
    filter.term = searchTerm(term.trim());
  }

  const int = (name: string, min: number, max?: number) => {
    const raw = get(name);
    return raw === undefined ? undefined : integerParameter(name, raw, min, max);
  };
  const dec = (name: string) => {
    const raw = get(name);
    return raw === undefined ? undefined : decimalParameter(name, raw);
  };
  const byNumber = (a: number, b: number) => a - b;
  filter.createdAt = range(
    "startTimestamp",
    "endTimestamp",
    int("startTimestamp", 0, MAX_UNIX_SECONDS),
    int("endTimestamp", 0, MAX_UNIX_SECONDS),
    byNumber,
  );
  const startBlock = int("startBlock", 0);
  const endBlock = int("endBlock", 0);
  filter.originBlock = range(
    "startBlock",
    "endBlock",
    startBlock === undefined ? undefined : BigInt(startBlock),
    endBlock === undefined ? undefined : BigInt(endBlock),
    (a, b) => (a < b ? -1 : a > b ? 1 : 0),
  );
  filter.amountUsd = range("amountUsdMin", "amountUsdMax", dec("amountUsdMin"), dec("amountUsdMax"), compareDecimal);
  filter.appFeesUsd = range(
    "appFeesAmountUsdMin",
    "appFeesAmountUsdMax",
    dec("appFeesAmountUsdMin"),
    dec("appFeesAmountUsdMax"),
    compareDecimal,
  );
  filter.includeChildRequests = booleanParameter("includeChildRequests", get("includeChildRequests"));
  filter.fillTimeSeconds = range("fillTimeMin", "fillTimeMax", int("fillTimeMin", 0), int("fillTimeMax", 0), byNumber);

  const features = get("features");
  if (features !== undefined) {
    filter.features = features.split(",").map((feature) => {
      const name = feature.trim();
      if (!(FEATURES as readonly string[]).includes(name))
        bad("features", `must be a comma-separated list of ${FEATURES.join(", ")}`);
      return name;
    });
  }

  const privateChainsToInclude = uuidListParameter("privateChainsToInclude", get("privateChainsToInclude"));

  const sortByRaw = get("sortBy") ?? "createdAt";
  if (!(SORT_KEYS as readonly string[]).includes(sortByRaw)) bad("sortBy", `must be one of ${SORT_KEYS.join(", ")}`);
  const sortBy = sortByRaw as SortKey;
  const directionRaw = get("sortDirection");
  if (directionRaw !== undefined && directionRaw !== "asc" && directionRaw !== "desc")
    bad("sortDirection", "must be asc or desc");
  // The spec's defaults: newest first for the time sorts, smallest first for amountUsd.
  const sortDirection: SortDirection = directionRaw ?? (sortBy === "amountUsd" ? "asc" : "desc");

  const limitRaw = get("limit");
  const limit =
    limitRaw === undefined ? V3_LIMIT.default : integerParameter("limit", limitRaw, V3_LIMIT.min, V3_LIMIT.max);
  const continuation = get("continuation");
  if (continuation !== undefined && continuation === "") bad("continuation", "must not be empty");

  return {
    filter,
    sortBy,
    sortDirection,
    limit,
    ...(continuation !== undefined ? { continuation } : {}),
    includeTotal: booleanParameter("includeTotal", get("includeTotal")),
    includeAuthenticatedData: booleanParameter("includeAuthenticatedData", get("includeAuthenticatedData")),
    privateChainsToInclude,
  };
}
