import type pg from "pg";
import type { Logger } from "pino";
import { listRequestDeposits, markDepositReorged } from "../schema/chainFacts.js";
import { getFillAttempt, insertFillAttempt } from "../schema/fillAttempts.js";
import { type StoredRequest, getRequest } from "../schema/requests.js";
import { transitionRequest } from "../schema/transitionRequest.js";
import { withTransaction } from "../schema/withTransaction.js";
import type { FillOrder, StuckFillPolicy } from "../src/chains/adapter.js";
import type { ChainAdapters } from "../src/chains/chainAdapters.js";
import type { ChainRegistry } from "../src/chains/chainRegistry.js";
import type { RequestStatus } from "../src/domain/requestStatus.js";
import type { FailReason } from "../src/domain/failReasons.js";
import type { FailedTransaction } from "../src/domain/failedTransaction.js";
import type { PriceSource } from "../src/pricing/priceSource.js";
import { checkDeposit } from "./checkDeposit.js";
import { failRequest } from "./failRequest.js";

/**
 * A deposit made in time but not filled by its order's deadline plus this window is refunded instead: the
 * solver will not pay out an order the user has long stopped waiting for.
 */
export const FILL_WINDOW_AFTER_DEADLINE_MS = 10 * 60_000;

/** A referrer that makes the devnet's solver refuse the fill, so integrators can exercise their refund handling. */
export const DEBUG_FORCE_REFUND_REFERRER = "debug-force-refund";

export const DEFAULT_STUCK_FILL_POLICY: StuckFillPolicy = {
  bumpAfterMs: 30_000,
  maxBumps: 3,
  maxBroadcastFailures: 10,
};

export type FillDeps = {
  pool: pg.Pool;
  adapters: ChainAdapters;
  registry: ChainRegistry;
  enqueueRefund: (refundId: string) => Promise<void>;
  /** Runs the fill again later: while its deposit gathers confirmations. */
  enqueueFill: (requestId: string, options: { delayMs: number; key: string }) => Promise<void>;
  prices: PriceSource;
  /** When a sent fill that is not mined is re-priced, and finally cancelled. */
  stuckFill?: StuckFillPolicy;
  /** Honour DEBUG_FORCE_REFUND_REFERRER: on the devnet only. */
  debugReferrers: boolean;
  logger: Logger;
};

function fillOrder(request: StoredRequest, amount: bigint, currencySymbol: string): FillOrder {
  return {
    requestId: request.id,
    currency: request.destinationCurrency,
    amount,
    recipient: request.recipient,
    calls: request.calls.map((call) => ({ to: call.to, value: BigInt(call.value), data: call.data })),
    currencySymbol,
  };
}

/**
 * The solver's fill of one request from its own inventory. The fill is simulated before it is signed; a
 * fill that cannot succeed fails the request and queues the refund of its deposit instead. The signed
 * transaction is stored before it is broadcast (under the chain's nonce lock), so a retry or a crashed
 * worker re-sends that same transaction and a request is never paid twice; the Receiver also refuses a
 * second fill of one request id on-chain.
 */
export function createFillProcessor(deps: FillDeps) {
  const { pool, logger } = deps;

  /**
   * Fails the request and queues its refund. A fill refused before any was sent (`sent: false`) is failed only while
   * the request is pending with no fill attempt, checked under the per-request signing lock: another run may have
   * sent the fill meanwhile (it may even be mined, which is why a later simulation reverts), and a deposit must
   * never be both paid out and refunded.
   */
  async function fail(
    request: StoredRequest,
    failReason: FailReason,
    details: Record<string, unknown>,
    options: { sent: boolean; failedTransaction?: FailedTransaction },
  ): Promise<string> {
    const [deposit] = await listRequestDeposits(pool, request.id);
    const refundId = await withTransaction(pool, async (db) => {
      if (!options.sent) {
        await db.query("SELECT pg_advisory_xact_lock(hashtext($1))", [request.id]);
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
    logger.warn({ requestId: request.id, failReason, details }, "fill refused; refunding the deposit");
    return `failed: ${failReason}`;
  }

  return async function processFill(job: { data: { requestId: string } }): Promise<string> {
    const { requestId } = job.data;
    const request = await getRequest(pool, requestId);
    if (!request || (request.status !== "pending" && request.status !== "submitted"))
      return `skipped: ${request?.status ?? "unknown"}`;

    let attempt = await getFillAttempt(pool, requestId);
    if (!attempt) {
      const [first] = await listRequestDeposits(pool, requestId);
      if (!first) return "skipped: no deposit";
      if (request.fillAmount === null) return "skipped: no fill amount";
      const amountOut = request.fillAmount;
      if (Date.now() > request.deadline.getTime() + FILL_WINDOW_AFTER_DEADLINE_MS) {
        return fail(
          request,
          "PROTOCOL_DEADLINE_EXPIRED",
          { message: `not filled within ${FILL_WINDOW_AFTER_DEADLINE_MS / 1000} s of the order's deadline` },
          { sent: false },
        );
      }
      const origin = deps.adapters.adapter(first.chainId);
      const check = await checkDeposit(first, { adapter: origin, registry: deps.registry, prices: deps.prices });
      if (check.state === "confirming") {
        const delayMs = Math.max(200, check.missingBlocks * origin.chain.blockTimeSeconds * 1000);
        await deps.enqueueFill(requestId, { delayMs, key: `${first.blockNumber + BigInt(check.missingBlocks)}` });
        return `confirming: ${check.missingBlocks} blocks to go`;
      }
      if (check.state === "reorged") {
        // Nothing arrived, so nothing is refunded and nothing is filled.
        await withTransaction(pool, async (db) => {
          await markDepositReorged(db, first, check.reorg);
          await transitionRequest(db, {
            requestId,
            from: ["pending"],
            to: "failure",
            failReason: "DEPOSIT_REORGED",
            details: check.reorg,
          });
        });
        logger.warn({ requestId, txHash: first.txHash, reorg: check.reorg }, "deposit reorged out before the fill");
        return "failed: DEPOSIT_REORGED";
      }
      if (deps.debugReferrers && request.referrer === DEBUG_FORCE_REFUND_REFERRER) {
        return fail(
          request,
          "MANUAL_ADMIN_REFUND",
          { message: `the devnet solver refuses fills with referrer ${DEBUG_FORCE_REFUND_REFERRER}` },
          { sent: false },
        );
      }
      const chain = deps.adapters.adapter(request.destinationChainId);
      const currency = deps.registry.currency(chain.chain.id, request.destinationCurrency);
      const native = request.destinationCurrency === chain.nativeCurrency;
      const gasReserve = native
        ? await chain.estimateFee("fill", request.destinationCurrency, request.calls.length)
        : 0n;
      const balance = await chain.balanceOf(chain.solverAddress, request.destinationCurrency);
      if (balance < amountOut + gasReserve) {
        return fail(
          request,
          "SOLVER_BALANCE_TOO_LOW",
          {
            message: `the solver holds ${balance} of ${currency?.symbol ?? request.destinationCurrency} on chain ${chain.chain.id} and needs ${amountOut + gasReserve}`,
          },
          { sent: false },
        );
      }
      const prepared = await chain.prepareFill(
        fillOrder(request, amountOut, currency?.symbol ?? request.destinationCurrency),
      );
      if ("refusal" in prepared) {
        const { failure, call } = prepared.refusal;
        return fail(request, failure.failReason, failure.details, {
          sent: false,
          failedTransaction: {
            txHash: null,
            blockNumber: null,
            timestamp: null,
            fee: null,
            call: { ...call, value: call.value.toString() },
          },
        });
      }
      attempt = await withTransaction(pool, async (db) => {
        // Serialises signing per request across replicas; the nonce row lock serialises nonces per chain.
        await db.query("SELECT pg_advisory_xact_lock(hashtext($1))", [request.id]);
        const existing = await getFillAttempt(db, request.id);
        if (existing) return existing;
        // Failed meanwhile (a refund may be on its way): never sign a fill for it.
        const current = await getRequest(db, request.id, { forUpdate: true });
        if (current?.status !== "pending") return undefined;
        const signed = await chain.signTransaction(db, prepared.transaction);
        await insertFillAttempt(db, {
          requestId: request.id,
          chainId: chain.chain.id,
          solver: chain.solverAddress,
          nonce: signed.nonce,
          txHash: signed.txHash,
          rawTx: signed.rawTx,
          currency: request.destinationCurrency,
          amount: amountOut,
          recipient: request.recipient,
        });
        return getFillAttempt(db, request.id);
      });
    }
    if (!attempt) return "skipped: no longer pending";
    const sent = attempt;
    const outcome = await deps.adapters.adapter(sent.chainId).followFill(sent, {
      pool,
      policy: deps.stuckFill ?? DEFAULT_STUCK_FILL_POLICY,
    });
    if (outcome.state === "reverted") {
      // Mined and reverted: its nonce is spent, so it can never pay; the deposit goes back.
      return fail(
        request,
        outcome.failure.failReason,
        { ...outcome.failure.details, fillTxHash: outcome.txHash, message: "the fill transaction reverted on-chain" },
        { sent: true, failedTransaction: outcome.failedTransaction },
      );
    }
    if (outcome.state === "cancelled") {
      return fail(
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
    await withTransaction(pool, (db) =>
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
    return outcome.txHash;
  };
}
