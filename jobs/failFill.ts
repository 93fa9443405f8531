import { listRequestDeposits } from "../schema/requestDeposits.js";
import { getFillAttempt } from "../schema/fillAttempts.js";
import { lockFillSigning } from "../schema/lockFillSigning.js";
import type { StoredRequest } from "../schema/requests.js";
import { withTransaction } from "../schema/withTransaction.js";
import type { FailReason } from "../src/domain/failReasons.js";
import type { FailedTransaction } from "../src/domain/failedTransaction.js";
import type { RequestStatus } from "../src/domain/requestStatus.js";
import type { FillDeps } from "./fillDeps.js";
import { failRequest } from "./failRequest.js";

/**
 * Fails the request and queues its refund. A fill refused before any was sent (`sent: false`) is failed only while
 * the request is pending with no fill attempt, checked under the per-request signing lock: another run may have
 * sent the fill meanwhile (it may even be mined, which is why a later simulation reverts), and a deposit must
 * never be both paid out and refunded.
 */
export async function failFill(
  deps: Pick<FillDeps, "pool" | "enqueueRefund" | "logger">,
  request: StoredRequest,
  failReason: FailReason,
  details: Record<string, unknown>,
  options: { sent: boolean; failedTransaction?: FailedTransaction },
): Promise<string> {
  const { pool } = deps;
  const [deposit] = await listRequestDeposits(pool, request.id);
  const refundId = await withTransaction(pool, async (db) => {
    if (!options.sent) {
      await lockFillSigning(db, request.id);
      if (await getFillAttempt(db, request.id)) return "sent elsewhere";
    }
    const from: RequestStatus[] = options.sent ? ["pending", "submitted"] : ["pending"];
    return failRequest(db, {
      request,
      from,
      failReason,
      deposit,
      details,
      failedTransaction: options.failedTransaction,
    });
  });
  if (refundId === "sent elsewhere") return "skipped: a fill was sent meanwhile";
  if (refundId) await deps.enqueueRefund(refundId);
  // ORDER_ALREADY_FILLED refunds nothing (the recipient was paid), nor does a request that had moved on.
  deps.logger.warn(
    { requestId: request.id, failReason, details, refundId: refundId ?? null },
    refundId ? "fill refused; refunding the deposit" : "fill refused; nothing refunded",
  );
  return `failed: ${failReason}`;
}
