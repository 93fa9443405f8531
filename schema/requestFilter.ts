/**
 * The typed form of a request listing query, shared by REST (/requests/v3, /requests/v2) and GraphQL: parsing
 * produces it, schema/requestsQuery.ts turns it into SQL. Values are already validated and normalised
 * (hashes and EVM addresses lower-cased, symbols upper-cased).
 */
export const FIELD_KEYS = [
  "id",
  "orderId",
  "user",
  "recipient",
  "depositAddress",
  "originChainId",
  "destinationChainId",
  "chainId",
  "status",
  "failReason",
  "refundFailReason",
  "apiKey",
  "requestType",
  "referrer",
  "currencyInChainId",
  "currencyOutChainId",
  "currencyInAddress",
  "currencyOutAddress",
  "currencyInSymbol",
  "currencyOutSymbol",
  "depositTxHash",
  "fillTxHash",
  "refundTxHash",
] as const;
export type FieldKey = (typeof FIELD_KEYS)[number];

/** One condition: `values` OR-ed, or a null check when `values` is null; `negate` is the `not:` prefix. */
export type FieldCondition = { field: FieldKey; negate: boolean; values: Array<string | number> | null };

export type Range<T> = { min?: T; max?: T };

export const SORT_KEYS = ["createdAt", "updatedAt", "amountUsd"] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortDirection = "asc" | "desc";

/** The last row of the previous page, in the sort's own terms (a Postgres text rendering, compared exactly). */
export type Keyset = { value: string; id: string };

/**
 * `term` as given, as a transaction hash when some chain family reads it as one (in that family's canonical form: EVM
 * 0x-prefixed, a Bitcoin txid bare, both lower case), and as an address when some family reads it as one (its
 * comparison key: EVM lower case, base58 as written); the caller asks the families (searchTerm).
 */
export type SearchTerm = { text: string; transactionHash: string | undefined; address: string | undefined };

export type RequestFilter = {
  /** AND-ed. `apiKey` values are key ids once authorised. */
  conditions: FieldCondition[];
  /** OR-ed groups of AND-ed conditions; empty means no group restriction. */
  groups: FieldCondition[][];
  term?: SearchTerm;
  createdAt: Range<number>;
  originBlock: Range<bigint>;
  amountUsd: Range<string>;
  appFeesUsd: Range<string>;
  fillTimeSeconds: Range<number>;
  features: string[];
  /**
   * Child requests (a further deposit for a paid order, refunded as DOUBLE_SPEND) are listed only when asked for;
   * then an `id` condition also matches the children of that id.
   */
  includeChildRequests: boolean;
  /**
   * Only requests quoted with a key of this integrator, any of its keys (revoked ones included): the dashboard's
   * scope, however many keys the integrator has (an `apiKey` condition takes at most 50).
   */
  integrator?: string;
};

export type RequestListQuery = {
  filter: RequestFilter;
  sortBy: SortKey;
  sortDirection: SortDirection;
  limit: number;
  after?: Keyset;
};

export function emptyFilter(): RequestFilter {
  return {
    conditions: [],
    groups: [],
    createdAt: {},
    originBlock: {},
    amountUsd: {},
    appFeesUsd: {},
    fillTimeSeconds: {},
    features: [],
    includeChildRequests: false,
  };
}
