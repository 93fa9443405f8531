import type pg from "pg";
import { getRefund, markRefundSettled } from "../schema/refunds.js";
import { setRefundFailReason } from "../schema/setRefundFailReason.js";
import { transitionRequest } from "../schema/transitionRequest.js";
import { withTransaction } from "../schema/withTransaction.js";

/**
 * Records a refund an operator paid by hand, with its transaction: the refund is settled and, when it
 * refunds its request, the request moves to `refund` in the same transaction.
 */
export async function settleRefund(
  pool: pg.Pool,
  refundId: string,
  txHash: string,
  note: string,
): Promise<{ settled: boolean; requestId?: string }> {
  return withTransaction(pool, async (db) => {
    const refund = await getRefund(db, refundId, { forUpdate: true });
    if (!refund || !(await markRefundSettled(db, refundId, txHash, note))) return { settled: false };
    if (refund.refundsRequest) {
      await setRefundFailReason(db, refund.requestId, null);
      await transitionRequest(db, {
        requestId: refund.requestId,
        from: ["failure"],
        to: "refund",
        details: { refundTxHash: txHash, settledBy: "operator", note },
      });
    }
    return { settled: true, requestId: refund.requestId };
  });
}
