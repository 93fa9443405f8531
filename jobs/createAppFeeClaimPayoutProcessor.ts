import type pg from "pg";
import type { Logger } from "pino";
import {
  failRevertedAppFeeClaim,
  getAppFeeClaim,
  markAppFeeClaimSent,
  recordAppFeeClaimRefusal,
} from "../schema/appFeeClaims.js";
import { raiseOperatorAlert } from "../schema/operatorAlerts.js";
import { followSentWithdrawal } from "./followSentWithdrawal.js";
import { fillLedgerIn } from "../schema/fillLedger.js";
import { withTransaction } from "../schema/withTransaction.js";
import type { ChainAdapters } from "../src/chains/chainAdapters.js";
import type { SignedTransaction } from "../src/chains/adapter.js";
import {
  APP_FEE_CLAIM_MAX_ATTEMPTS,
  APP_FEE_CLAIM_RETRY_BASE_MS,
  appFeeClaimRetryDelay,
} from "../src/domain/appFeeClaimRetryDelay.js";

export type AppFeeClaimRetryPolicy = {
  /** APP_FEE_CLAIM_RETRY_BASE_MS: the first retry's delay after a refused payout. */
  retryBaseMs: number;
  /** APP_FEE_CLAIM_MAX_ATTEMPTS: refused payouts before the claim fails and its amount is claimable again. */
  maxAttempts: number;
};

export type AppFeeClaimPayoutDeps = {
  pool: pg.Pool;
  adapters: ChainAdapters;
  logger: Logger;
  retry?: AppFeeClaimRetryPolicy;
};

/**
 * Pays one signed claim out of the Depository that holds the earnings (a withdrawal named by the claim id) to the
 * recipient the wallet signed for; the solver pays the gas. The signed withdrawal is stored before it is broadcast,
 * under the claim's row lock, so a retry or a second worker re-sends the same bytes and never pays twice. A sent payout
 * that reverted on-chain fails the claim (its amount claimable again) with an APP_FEE_CLAIM_REVERTED operator alert.
 */
export function createAppFeeClaimPayoutProcessor(deps: AppFeeClaimPayoutDeps) {
  const { pool, logger } = deps;
  return async function payAppFeeClaim(job: { data: { claimId: string } }): Promise<string> {
    const claim = await getAppFeeClaim(pool, job.data.claimId);
    if (!claim) return "skipped: unknown";
    // A claim is paid out as a refund is: a withdrawal from the origin's Depository.
    const chain = deps.adapters.refunder(claim.chainId);
    if (claim.status === "sent") {
      const sent = { rawTx: claim.rawTx!, txHash: claim.txHash! };
      const receipt = await followSentWithdrawal(chain, sent);
      if (receipt.state !== "reverted") return sent.txHash;
      // Nothing was paid: the claim fails, its amount claimable again.
      const reason = `the payout ${sent.txHash} reverted on-chain (block ${receipt.blockNumber})`;
      const details = {
        claimId: claim.id,
        wallet: claim.wallet,
        chainId: claim.chainId,
        currency: claim.currency,
        amount: claim.amount,
        recipient: claim.recipient,
        txHash: sent.txHash,
        blockNumber: receipt.blockNumber,
      };
      const failed = await withTransaction(pool, async (db) => {
        const after = await failRevertedAppFeeClaim(db, claim.id, reason);
        if (after) await raiseOperatorAlert(db, { kind: "APP_FEE_CLAIM_REVERTED", subject: claim.id, details });
        return after;
      });
      if (!failed) return "skipped: changed meanwhile";
      logger.error(
        { alert: "APP_FEE_CLAIM_REVERTED", ...details },
        "app fee claim payout reverted: the claim failed and its amount is claimable again",
      );
      return `failed: payout ${sent.txHash} reverted`;
    }
    if (claim.status !== "queued") return `skipped: ${claim.status}`;
    const prepared = await chain.prepareRefund({
      orderId: claim.id,
      currency: claim.currency,
      recipient: claim.recipient,
      amount: claim.amount,
    });
    if ("refusal" in prepared) {
      // The Depository cannot cover it (yet): tried again with backoff (the reconcile tick re-queues it when due, an
      // operator may top the Depository up meanwhile), failed after the limit, which frees the amount to claim again.
      const retryBaseMs = deps.retry?.retryBaseMs ?? APP_FEE_CLAIM_RETRY_BASE_MS;
      const maxAttempts = deps.retry?.maxAttempts ?? APP_FEE_CLAIM_MAX_ATTEMPTS;
      const reason = `the Depository cannot pay ${claim.amount} of ${claim.currency} on chain ${claim.chainId}: ${prepared.refusal}`;
      const after = await recordAppFeeClaimRefusal(pool, claim.id, {
        attempts: claim.attempts,
        reason,
        retryInMs: appFeeClaimRetryDelay(claim.attempts + 1, retryBaseMs),
        maxAttempts,
      });
      if (!after) return "skipped: changed meanwhile";
      const log = { claimId: claim.id, attempts: after.attempts, reason };
      if (after.status === "failed") {
        logger.warn(log, "app fee claim failed: its amount is claimable again");
        return `failed after ${after.attempts} refused payouts`;
      }
      logger.warn({ ...log, nextAttemptAt: after.nextAttemptAt }, "app fee claim payout refused; retrying later");
      return `refused: retry at ${after.nextAttemptAt?.toISOString()}`;
    }
    const signed: SignedTransaction | undefined = await withTransaction(pool, async (db) => {
      const current = await getAppFeeClaim(db, claim.id, { forUpdate: true });
      if (current?.status !== "queued") return undefined;
      const transaction = await chain.signTransaction(fillLedgerIn(db), prepared.transaction);
      await markAppFeeClaimSent(db, claim.id, transaction);
      return transaction;
    });
    if (!signed) return payAppFeeClaim(job);
    await chain.broadcast(signed);
    logger.info(
      { claimId: claim.id, chainId: claim.chainId, txHash: signed.txHash, amount: claim.amount.toString() },
      "app fee claim paid out",
    );
    return signed.txHash;
  };
}
