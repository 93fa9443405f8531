import { quoteRequestSchema } from "./quoteRequestSchema.js";

/**
 * Fields the official client may send that Crossfill accepts and does not act on (docs/API.md, "Fields accepted and
 * not used"). They are known, so they are never taken for a misspelling.
 */
export const ACCEPTED_UNUSED_QUOTE_FIELDS = [
  "txsGasLimit",
  "authorizationList",
  "additionalData",
  "referrerAddress",
  "recoveryAddress",
  "refundOnOrigin",
  "enableTrueExactOutput",
  "explicitDeposit",
  "useExternalLiquidity",
  "useFallbacks",
  "usePermit",
  "permitExpiry",
  "gasLimitForDepositSpecifiedTxs",
  "forceSolverExecution",
  "subsidizeRent",
  "includedSwapSources",
  "excludedSwapSources",
  "includedOriginSwapSources",
  "includedDestinationSwapSources",
  "originGasOverhead",
  "maxRouteLength",
  "useSharedAccounts",
  "includeComputeUnitLimit",
  "overridePriceImpact",
  "disableSwapProviderPreference",
  "disableOriginSwaps",
  "fixedRate",
  "ttl",
] as const;

const usedFields: readonly string[] = Object.keys(quoteRequestSchema.shape);
const knownFields = new Set<string>([...usedFields, ...ACCEPTED_UNUSED_QUOTE_FIELDS]);

/** Levenshtein distance, stopping early once it exceeds `limit` (names are short; the limit is 1 or 2). */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      rowMin = Math.min(rowMin, current[j]);
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length];
}

/**
 * The first field of a quote body that is not one Crossfill knows but is a near miss of one it acts on (`recipent`,
 * `Recipient`, `refundto`), with the field meant; undefined when there is none. A dropped `recipient` would send the
 * funds to the sender, so a near miss is refused rather than ignored. Near: case-insensitive edit distance of at most
 * 2, and at most 1 for names of up to five letters (so `to` is not taken for `txs`). Other unknown fields pass.
 */
export function misspelledQuoteField(body: unknown): { field: string; meant: string } | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  for (const field of Object.keys(body)) {
    if (knownFields.has(field)) continue;
    const lower = field.toLowerCase();
    for (const meant of usedFields) {
      const limit = meant.length <= 5 ? 1 : 2;
      if (editDistance(lower, meant.toLowerCase(), limit) <= limit) return { field, meant };
    }
  }
  return undefined;
}
