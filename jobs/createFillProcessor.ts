import { listRequestDeposits } from "../schema/requestDeposits.js";
import { getFillAttempt } from "../schema/fillAttempts.js";
import { createFillLedger } from "../schema/fillLedger.js";
import { getRequest } from "../schema/requests.js";
import { isPayoutReorgedOut } from "../schema/payoutReorgs.js";
import { admitFill } from "./admitFill.js";
import { checkFillDeposit } from "./checkFillDeposit.js";
import { DEFAULT_STUCK_FILL_POLICY, type FillContext, type FillDeps } from "./fillDeps.js";
import { followReorgedPayout } from "./followReorgedPayout.js";
import { followSentFill } from "./followSentFill.js";
import { prepareSolverFill } from "./prepareSolverFill.js";
import { signAndStoreFill } from "./signAndStoreFill.js";

export { DEBUG_FORCE_REFUND_REFERRER } from "./admitFill.js";
export type { FillDeps } from "./fillDeps.js";

/**
 * The solver's fill of one request from its own inventory, in phases: a reorged payout is followed again; otherwise a
 * request with no fill yet waits for its deposit (`checkFillDeposit`), is admitted (`admitFill`), its fill is checked
 * against the solver's balance and simulated (`prepareSolverFill`) — a fill that cannot succeed fails the request
 * and queues the refund of its deposit instead — then signed and stored before it is broadcast (`signAndStoreFill`,
 * under the chain's nonce or wallet lock), so a retry or a crashed worker re-sends that same transaction and a
 * request is never paid twice; the Receiver also refuses a second fill of one request id on-chain. Last, the stored
 * fill is followed until it settles (`followSentFill`).
 */
export function createFillProcessor(deps: FillDeps) {
  const { pool } = deps;
  const context: FillContext = {
    ...deps,
    ledger: createFillLedger(pool),
    policy: deps.stuckFill ?? DEFAULT_STUCK_FILL_POLICY,
  };

  return async function processFill(job: { data: { requestId: string } }): Promise<string> {
    const { requestId } = job.data;
    const request = await getRequest(pool, requestId);
    if (request?.status === "success" && (await isPayoutReorgedOut(pool, requestId)))
      return followReorgedPayout(context, requestId);
    if (!request || (request.status !== "pending" && request.status !== "submitted"))
      return `skipped: ${request?.status ?? "unknown"}`;

    let attempt = await getFillAttempt(pool, requestId);
    if (!attempt) {
      const [first] = await listRequestDeposits(pool, requestId);
      if (!first) return "skipped: no deposit";
      if (request.fillAmount === null) return "skipped: no fill amount";
      const amountOut = request.fillAmount;
      const deposit = await checkFillDeposit(context, request, first);
      if (typeof deposit === "string") return deposit;
      const refused = await admitFill(context, request, deposit.windowEnd);
      if (refused !== undefined) return refused;
      const prepared = await prepareSolverFill(context, request, amountOut);
      if (typeof prepared === "string") return prepared;
      const signed = await signAndStoreFill(context, request, prepared.solver, prepared.transaction, amountOut);
      if (typeof signed === "string") return signed;
      attempt = signed;
    }
    if (!attempt) return "skipped: no longer pending";
    return followSentFill(context, request, attempt);
  };
}
