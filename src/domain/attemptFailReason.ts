import type { FailReason } from "./failReasons.js";

/**
 * The fail reason of a fill attempt that reverted (in simulation or on-chain). The spec reports every failed
 * same-chain swap attempt as TRANSACTION_REVERTED; other requests keep the reason the revert was classified as.
 */
export function attemptFailReason(requestType: string, classified: FailReason): FailReason {
  return requestType === "Same-chain Swap" ? "TRANSACTION_REVERTED" : classified;
}
