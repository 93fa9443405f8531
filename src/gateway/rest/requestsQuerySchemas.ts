import { z } from "zod";
import { anyTransactionHash } from "../../chains/vmFamilies.js";
import { FAIL_REASONS, REFUND_FAIL_REASONS } from "../../domain/failReasons.js";
import { FEATURES, LISTABLE_STATUSES, MAX_UNIX_SECONDS, NO_CONTROL_CHARACTERS, REQUEST_TYPES } from "./fieldValues.js";
import { SORT_KEYS } from "../../../schema/requestFilter.js";

/**
 * The query parameters of the listing endpoints as zod schemas: the parsers run them first (types, enums,
 * bounds, with the messages the 400s carry) and /openapi.json is generated from them.
 */
const integer = (min: number, max?: number) => {
  const range = max === undefined ? `at least ${min}` : `between ${min} and ${max}`;
  const base = z.coerce
    .number({ error: "must be an integer" })
    .int({ error: "must be an integer" })
    .min(min, { error: `must be ${range}` });
  return max === undefined ? base : base.max(max, { error: `must be ${range}` });
};
const boolean = z.enum(["true", "false"], { error: "must be true or false" });
const hash = z.string().regex(/^0x[0-9a-fA-F]{64}$/, { error: "must be a 32-byte hex string" });
// A transaction hash of any chain family: an EVM hash or a Bitcoin txid (64 hex digits, no 0x).
const txHash = z
  .string()
  .refine((value) => anyTransactionHash(value) !== undefined, { error: "must be a 32-byte hex string" })
  .describe("a transaction hash of any chain family (EVM: 0x-prefixed; Bitcoin: a txid)");
// Postgres text cannot hold NUL; no search value needs any control character.
const nonEmpty = z
  .string()
  .trim()
  .min(1, { error: "must not be empty" })
  .max(200, { error: "is too long" })
  .regex(NO_CONTROL_CHARACTERS, { error: "must not contain control characters" });
const address = nonEmpty.describe("an address (EVM addresses match case-insensitively)");
const chainId = z.coerce
  .number({ error: "must be a positive integer chain id" })
  .int({ error: "must be a positive integer chain id" })
  .positive({ error: "must be a positive integer chain id" });
const decimal = z.string().regex(/^\d{1,30}(\.\d{1,18})?$/, { error: "must be a non-negative decimal number" });
const oneOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(", ")}` });
const cursor = z.string().min(1, { error: "must not be empty" }).max(2000, { error: "is not a cursor from this API" });
const uuids = z.string().regex(/^[0-9a-fA-F-]{36}(,[0-9a-fA-F-]{36})*$/, { error: "must be comma-separated UUIDs" });

export const v3QuerySchema = z.object({
  limit: integer(1, 50).describe("page size, default 20").optional(),
  continuation: cursor.describe("the `continuation` of the previous page").optional(),
  includeTotal: boolean.describe("adds the exact `total` of matching requests").optional(),
  term: nonEmpty.describe("one search over request id, wallet, deposit address and every tx hash").optional(),
  id: hash.describe("request id").optional(),
  orderId: hash.describe("protocol order id").optional(),
  depositTxHash: txHash.optional(),
  fillTxHash: txHash.optional(),
  refundTxHash: txHash.optional(),
  originChainId: chainId.optional(),
  destinationChainId: chainId.optional(),
  chainId: chainId.describe("origin or destination").optional(),
  privateChainsToInclude: uuids.optional(),
  user: address.optional(),
  depositAddress: address.optional(),
  recipient: address.optional(),
  status: oneOf(LISTABLE_STATUSES).optional(),
  failReason: oneOf(FAIL_REASONS).optional(),
  refundFailReason: oneOf(REFUND_FAIL_REASONS).optional(),
  apiKey: nonEmpty.describe("comma-separated keys (or key ids) of your integrator").optional(),
  requestType: z
    .string()
    .describe(`one of ${REQUEST_TYPES.join(", ")} (case-insensitive)`)
    .optional(),
  referrer: nonEmpty.describe("exact referrer given at quote time; needs apiKey").optional(),
  currencyInChainId: chainId.optional(),
  currencyOutChainId: chainId.optional(),
  currencyInAddress: address.optional(),
  currencyOutAddress: address.optional(),
  currencyInSymbol: nonEmpty.describe("case-insensitive").optional(),
  currencyOutSymbol: nonEmpty.describe("case-insensitive").optional(),
  startTimestamp: integer(0, MAX_UNIX_SECONDS).describe("unix seconds, inclusive").optional(),
  endTimestamp: integer(0, MAX_UNIX_SECONDS).describe("unix seconds, inclusive").optional(),
  startBlock: integer(0).describe("origin deposit block, inclusive").optional(),
  endBlock: integer(0).describe("origin deposit block, inclusive").optional(),
  amountUsdMin: decimal.optional(),
  amountUsdMax: decimal.optional(),
  appFeesAmountUsdMin: decimal.optional(),
  appFeesAmountUsdMax: decimal.optional(),
  fillTimeMin: integer(0).describe("seconds from deposit to fill").optional(),
  fillTimeMax: integer(0).describe("seconds from deposit to fill").optional(),
  features: z
    .string()
    .describe(`comma-separated: ${FEATURES.join(", ")}`)
    .optional(),
  includeChildRequests: boolean.optional(),
  filters: z
    .string()
    .describe("JSON array of groups: keys AND-ed within a group, groups OR-ed; `not:` prefix, arrays, null checks")
    .optional(),
  sortBy: oneOf(SORT_KEYS).optional(),
  sortDirection: z
    .enum(["asc", "desc"], { error: "must be asc or desc" })
    .describe("default desc for time sorts, asc for amountUsd")
    .optional(),
  includeAuthenticatedData: boolean
    .describe("adds data.referrer, data.platformFee, data.apiKeyName for your own requests")
    .optional(),
});

export const v2QuerySchema = z.object({
  limit: integer(1, 50).describe("page size, default 20").optional(),
  continuation: cursor.optional(),
  user: address.describe("sender or recipient").optional(),
  hash: txHash.describe("origin or destination tx hash").optional(),
  originChainId: chainId.optional(),
  destinationChainId: chainId.optional(),
  chainId: chainId.describe("overridden by originChainId/destinationChainId").optional(),
  privateChainsToInclude: uuids.optional(),
  id: hash.optional(),
  orderId: hash.optional(),
  includeOrderData: boolean.optional(),
  startTimestamp: integer(0, MAX_UNIX_SECONDS).optional(),
  endTimestamp: integer(0, MAX_UNIX_SECONDS).optional(),
  startBlock: integer(0).optional(),
  endBlock: integer(0).optional(),
  referrer: nonEmpty.optional(),
  depositAddress: address.optional(),
  includeChildRequests: boolean.optional(),
  includeAuthenticatedData: boolean.optional(),
  status: oneOf(LISTABLE_STATUSES).optional(),
  apiKey: nonEmpty.optional(),
  sortBy: z.enum(["createdAt", "updatedAt"], { error: "must be createdAt or updatedAt" }).optional(),
  sortDirection: z.enum(["asc", "desc"], { error: "must be asc or desc" }).optional(),
});

export const quoteDataQuerySchema = z.object({
  requestId: hash.describe("a request quoted with a key of your integrator"),
});
