import { InvalidInputError } from "../../domain/errors.js";
import { MAX_UNIX_SECONDS, fieldValue } from "./fieldValues.js";
import { v2QuerySchema } from "./requestsQuerySchemas.js";
import { validateQuery } from "../http/validateQuery.js";
import { booleanParameter, integerParameter, uuidListParameter } from "./parseRequestsQuery.js";
import {
  type FieldCondition,
  type FieldKey,
  type SortDirection,
  emptyFilter,
  type RequestFilter,
} from "../../../schema/requestFilter.js";

export type ParsedRequestsV2Query = {
  filter: RequestFilter;
  sortBy: "createdAt" | "updatedAt";
  sortDirection: SortDirection;
  limit: number;
  continuation?: string;
  includeOrderData: boolean;
  includeAuthenticatedData: boolean;
  /** Private chains (by UUID) whose requests the listing includes. */
  privateChainsToInclude: string[];
};

export const V2_LIMIT = { default: 20, min: 1, max: 50 } as const;
export const V2_PARAMETERS: readonly string[] = [
  "limit",
  "continuation",
  "user",
  "hash",
  "originChainId",
  "destinationChainId",
  "chainId",
  "privateChainsToInclude",
  "id",
  "orderId",
  "includeOrderData",
  "startTimestamp",
  "endTimestamp",
  "startBlock",
  "endBlock",
  "referrer",
  "depositAddress",
  "includeChildRequests",
  "includeAuthenticatedData",
  "status",
  "apiKey",
  "sortBy",
  "sortDirection",
];

function bad(parameter: string, message: string): never {
  throw new InvalidInputError("INVALID_INPUT", `${parameter}: ${message}`);
}

/** Every combination of one group from each list: (a1 OR a2) AND (b1 OR b2) as OR-ed AND groups. */
function andGroups(left: FieldCondition[][], right: FieldCondition[][]): FieldCondition[][] {
  if (left.length === 0) return right;
  if (right.length === 0) return left;
  return left.flatMap((a) => right.map((b) => [...a, ...b]));
}

/** GET /requests/v2's parameters onto the same typed filter as v3. */
export function parseRequestsV2Query(params: Record<string, string[]>): ParsedRequestsV2Query {
  for (const name of Object.keys(params)) {
    if (!V2_PARAMETERS.includes(name)) bad(name, "unknown parameter");
  }
  validateQuery(v2QuerySchema, params);
  const get = (name: string): string | undefined => params[name]?.[0];
  const filter = emptyFilter();
  const condition = (field: FieldKey, raw: string, parameter: string = field): FieldCondition => ({
    field,
    negate: false,
    values: [fieldValue(field, parameter, raw)],
  });
  for (const field of [
    "id",
    "orderId",
    "originChainId",
    "destinationChainId",
    "depositAddress",
    "status",
    "referrer",
  ] as const) {
    const raw = get(field);
    if (raw !== undefined) filter.conditions.push(condition(field, raw));
  }
  // v2 records show a submitted fill as pending (buildRequestRecordV2), so its pending filter takes both.
  const status = filter.conditions.find((c) => c.field === "status");
  if (status?.values?.[0] === "pending") status.values.push("submitted");
  // chainId is overridden by originChainId/destinationChainId.
  const chainId = get("chainId");
  if (chainId !== undefined && get("originChainId") === undefined && get("destinationChainId") === undefined)
    filter.conditions.push(condition("chainId", chainId));
  const apiKey = get("apiKey");
  if (apiKey !== undefined) {
    filter.conditions.push({
      field: "apiKey",
      negate: false,
      values: apiKey.split(",").map((key) => fieldValue("apiKey", "apiKey", key)),
    });
  }
  // user: sender or recipient; hash: origin or destination transaction.
  let groups: FieldCondition[][] = [];
  const user = get("user");
  if (user !== undefined)
    groups = andGroups(groups, [[condition("user", user, "user")], [condition("recipient", user, "user")]]);
  const hash = get("hash");
  if (hash !== undefined)
    groups = andGroups(groups, [[condition("depositTxHash", hash, "hash")], [condition("fillTxHash", hash, "hash")]]);
  filter.groups = groups;
  filter.includeChildRequests = booleanParameter("includeChildRequests", get("includeChildRequests"));

  const int = (name: string, max?: number) => {
    const raw = get(name);
    return raw === undefined ? undefined : integerParameter(name, raw, 0, max);
  };
  const [start, end] = [int("startTimestamp", MAX_UNIX_SECONDS), int("endTimestamp", MAX_UNIX_SECONDS)];
  const [startBlock, endBlock] = [int("startBlock"), int("endBlock")];
  if (start !== undefined && end !== undefined && start > end) bad("startTimestamp", "must not exceed endTimestamp");
  if (startBlock !== undefined && endBlock !== undefined && startBlock > endBlock)
    bad("startBlock", "must not exceed endBlock");
  filter.createdAt = { ...(start !== undefined ? { min: start } : {}), ...(end !== undefined ? { max: end } : {}) };
  filter.originBlock = {
    ...(startBlock !== undefined ? { min: BigInt(startBlock) } : {}),
    ...(endBlock !== undefined ? { max: BigInt(endBlock) } : {}),
  };
  const privateChainsToInclude = uuidListParameter("privateChainsToInclude", get("privateChainsToInclude"));

  const sortBy = get("sortBy") ?? "createdAt";
  if (sortBy !== "createdAt" && sortBy !== "updatedAt") bad("sortBy", "must be createdAt or updatedAt");
  const sortDirection = get("sortDirection") ?? "desc";
  if (sortDirection !== "asc" && sortDirection !== "desc") bad("sortDirection", "must be asc or desc");
  const limitRaw = get("limit");
  const continuation = get("continuation");
  if (continuation === "") bad("continuation", "must not be empty");
  return {
    filter,
    sortBy,
    sortDirection,
    limit: limitRaw === undefined ? V2_LIMIT.default : integerParameter("limit", limitRaw, V2_LIMIT.min, V2_LIMIT.max),
    ...(continuation !== undefined ? { continuation } : {}),
    includeOrderData: booleanParameter("includeOrderData", get("includeOrderData")),
    includeAuthenticatedData: booleanParameter("includeAuthenticatedData", get("includeAuthenticatedData")),
    privateChainsToInclude,
  };
}
