import type pg from "pg";
import { queueRefund } from "../schema/refunds.js";
import type { StoredRequest } from "../schema/requests.js";
import { transitionRequest } from "../schema/transitionRequest.js";
import type { FailReason } from "../src/domain/failReasons.js";
import type { FailedTransaction } from "../src/domain/failedTransaction.js";
import type { RequestStatus } from "../src/domain/requestStatus.js";
import type { FactPosition } from "../src/domain/factPosition.js";

export type RefundableDeposit = {
  chainId: number;
  txHash: string;
  position: FactPosition;
  currency: string;
  amount: bigint;
  depositor: string;
};

/**
 * Fails a request and queues the refund of its deposit in the same transaction, so no failed deposit is
 * left without a refund on its way (but an order already paid, ORDER_ALREADY_FILLED). The refund goes to the quote's
 * refundTo, else to the depositor.
 * Returns the refund's id to enqueue after commit, or undefined when nothing was changed.
 */
export async function failRequest(
  db: pg.PoolClient,
  args: {
    request: Pick<StoredRequest, "id" | "refundTo">;
    from: readonly RequestStatus[];
    failReason: FailReason;
    deposit: RefundableDeposit;
    details?: Record<string, unknown>;
    failedTransaction?: FailedTransaction;
  },
): Promise<string | undefined> {
  const result = await transitionRequest(db, {
    requestId: args.request.id,
    from: args.from,
    to: "failure",
    failReason: args.failReason,
    details: args.details,
    failedTransaction: args.failedTransaction,
  });
  if (!result.applied) return undefined;
  // The Receiver shows the order paid (by a fill sent outside Crossfill: one of ours is found before failing): the
  // recipient has the output, so the deposit is not paid back as well; an operator settles it.
  if (args.failReason === "ORDER_ALREADY_FILLED") return undefined;
  return queueRefund(db, {
    requestId: args.request.id,
    // The refund row still names the deposit's position by its column, `log_index` (schema/refunds.ts).
    deposit: { ...args.deposit, position: args.deposit.position },
    reason: args.failReason,
    refundsRequest: true,
    recipient: args.request.refundTo ?? args.deposit.depositor,
  });
}
