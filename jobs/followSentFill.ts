import type { StoredRequest } from "../schema/requests.js";
import { transitionRequest } from "../schema/transitionRequest.js";
import { withTransaction } from "../schema/withTransaction.js";
import type { StoredFillAttempt } from "../src/chains/fillLedger.js";
import { attemptFailReason } from "../src/domain/attemptFailReason.js";
import { failFill } from "./failFill.js";
import type { FillContext } from "./fillDeps.js";

/**
 * Follows a stored fill on its chain (broadcast, re-sent, re-priced or cancelled by the adapter, each new version
 * stored first) and settles the request by what became of it: reverted or cancelled fails it and refunds the
 * deposit; otherwise it is `submitted`, and a mined fill's receipt is confirmed (a sent one's watched).
 */
export async function followSentFill(
  context: FillContext,
  request: StoredRequest,
  sent: StoredFillAttempt,
): Promise<string> {
  const { logger } = context;
  const requestId = request.id;
  const outcome = await context.adapters.solver(sent.chainId).followFill(sent, {
    ledger: context.ledger,
    policy: context.policy,
  });
  if (outcome.state === "reverted") {
    // Mined and reverted: its nonce is spent, so it can never pay; the deposit goes back.
    return failFill(
      context,
      request,
      attemptFailReason(request.requestType, outcome.failure.failReason),
      { ...outcome.failure.details, fillTxHash: outcome.txHash, message: "the fill transaction reverted on-chain" },
      { sent: true, failedTransaction: outcome.failedTransaction },
    );
  }
  if (outcome.state === "cancelled") {
    return failFill(
      context,
      request,
      outcome.neverAccepted ? "TRANSACTION_SUBMISSION_FAILED" : "TRANSACTION_NOT_INCLUDED",
      {
        message: outcome.neverAccepted
          ? "the node refused the fill transaction; its nonce was spent on a cancellation"
          : "the fill was not mined within the gas-bump window; its nonce was spent on a cancellation",
        fillTxHashes: [...sent.previousTxHashes, sent.txHash],
        nonceSpentBy: outcome.nonceSpentBy,
      },
      { sent: true },
    );
  }
  await withTransaction(context.pool, (db) =>
    transitionRequest(db, {
      requestId,
      from: ["pending"],
      to: "submitted",
      details: { fillTxHash: sent.txHash, nonce: sent.nonce },
    }),
  );
  if (outcome.state === "in-flight" && outcome.action !== "re-sent")
    logger.warn({ requestId, txHash: outcome.txHash, action: outcome.action }, "fill not mined yet");
  else logger.info({ requestId, txHash: sent.txHash, nonce: sent.nonce }, "fill sent");
  const fill = { requestId, chainId: sent.chainId, txHash: outcome.txHash };
  if (outcome.state === "mined") await context.receipts?.confirm(fill);
  else if (outcome.action !== "cancelling") context.receipts?.watch(fill);
  return outcome.txHash;
}
