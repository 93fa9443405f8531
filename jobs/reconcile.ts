import type { FactWindow } from "../schema/chainFacts.js";
import type { ReconcileDeps } from "./reconcileDeps.js";
import type { ReconcileResult } from "./reconcileResult.js";
import { reconcileDeposits } from "./reconcileDeposits.js";
import { reconcileFillsAndRefunds } from "./reconcileFillsAndRefunds.js";

/**
 * One pass over chain facts not yet applied to requests: deposits move `waiting` requests to `pending`
 * (or `failure` when the deposit does not match the order), indexed fills move them to `success` and credit their
 * app-fee recipients. A Bitcoin deposit is applied when it is seen in the mempool; its block's fact later only moves
 * it to that block.
 * A deposit that does not match its order fails the request and is refunded; a further deposit on a
 * request already under way becomes a child request, failed as DOUBLE_SPEND and refunded. Indexed refund withdrawals move failed requests
 * to `refund`; deposit-address deposits of succeeded requests are queued for their sweep. Every step is keyed in Postgres, so running it twice, or on two workers at once, changes nothing.
 * With a `window`, only deposits and fills indexed within it are read (the rest of the pass is the same).
 * This runs the two parts in order; a worker runs them side by side (jobs/startWorker.ts), each coalesced on its
 * own, and a fill whose deposit is not applied yet waits for the next pass.
 */
export async function reconcile(deps: ReconcileDeps, window: FactWindow = {}): Promise<ReconcileResult> {
  const deposits = await reconcileDeposits(deps, window);
  return { deposits: deposits.deposits, ...(await reconcileFillsAndRefunds(deps, window, deposits)) };
}
