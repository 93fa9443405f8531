import type { DepositFact } from "../schema/chainFacts.js";
import { recordRequestDeposits } from "../schema/requestDeposits.js";
import { readDepositContexts } from "../schema/depositContext.js";
import { lockRequests } from "../schema/requests.js";
import { type PendingMove, transitionToPending } from "../schema/transitionToPending.js";
import { withTransaction } from "../schema/withTransaction.js";
import { assessDeposit, paidAfterDeadline } from "../src/domain/assessDeposit.js";
import { fixedFeesInOf } from "../src/domain/fixedFeesIn.js";
import { overpaidBeyondTolerance, overpaymentRuleOf } from "../src/domain/overpaymentRule.js";
import { depositEventDetails } from "./depositEventDetails.js";
import type { ReconcileDeps } from "./reconcileDeps.js";

type UnappliedDeposit = DepositFact & { requestId: string };

export type OnTimeDepositsResult = {
  /** The requests moved to `pending`, to queue their fills once the pass is done. */
  pending: string[];
  /** The deposits this left for a transaction of their own (`reconcileDeposits`' general path). */
  left: UnappliedDeposit[];
};

/**
 * The common case of a block's deposits — the first payment of a `waiting` request, on time, that fills — applied to
 * all their requests in one transaction of six statements, whatever their number: a block's clients see `pending`
 * together, as soon as the first of them would alone (a transaction per deposit made each statement wait for the
 * others' on a busy machine). Takes at most one deposit per request. Anything else (a deposit already applied is
 * skipped; a second payment, a late one, one overpaid past the tolerance, a mempool one mined, one that fails its
 * order) is left, unwritten, for the general path, which decides it again under its own lock.
 */
export async function applyOnTimeDeposits(
  pool: ReconcileDeps["pool"],
  deposits: readonly UnappliedDeposit[],
): Promise<OnTimeDepositsResult> {
  if (deposits.length === 0) return { pending: [], left: [] };
  return withTransaction(pool, async (client) => {
    const locked = await lockRequests(
      client,
      deposits.map((deposit) => deposit.requestId),
    );
    const requests = new Map(locked.map((request) => [request.id, request]));
    // After the lock, in a statement of its own: one that waited for a lock reads with a snapshot from before.
    const contexts = await readDepositContexts(
      client,
      deposits.map((fact) => ({ requestId: fact.requestId, fact })),
    );
    const paid: UnappliedDeposit[] = [];
    const moves: PendingMove[] = [];
    const left: UnappliedDeposit[] = [];
    deposits.forEach((deposit, index) => {
      const request = requests.get(deposit.requestId);
      const context = contexts[index]!;
      if (!request || context.applied) return;
      const late = paidAfterDeadline(deposit.timestamp, request.deadline);
      const overpayment = overpaymentRuleOf(request.quote);
      // An overpayment past the tolerance is re-priced or refunded by the general path.
      const overpaid = overpaidBeyondTolerance(request, overpayment, deposit.amount);
      const assessment =
        request.status === "waiting" && !context.appliedFromMempool && !late && !overpaid
          ? assessDeposit(
              {
                ...request,
                strict: context.depositAddressType === "strict",
                overpayment,
                fixedFeesIn: fixedFeesInOf(request.quote),
              },
              deposit,
            )
          : undefined;
      if (!assessment?.fill) {
        left.push(deposit);
        return;
      }
      paid.push(deposit);
      moves.push({
        requestId: request.id,
        fillAmount: assessment.amountOut,
        details: { ...depositEventDetails(deposit), fillAmount: assessment.amountOut.toString() },
      });
    });
    if (paid.length > 0) await recordRequestDeposits(client, paid);
    return { pending: await transitionToPending(client, moves), left };
  });
}
