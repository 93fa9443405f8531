import type pg from "pg";
import type { Logger } from "pino";
import { listRequestDeposits, markDepositReorged, moveAppliedDeposit } from "../schema/requestDeposits.js";
import { getFillAttempt, insertFillAttempt } from "../schema/fillAttempts.js";
import { type StoredRequest, getRequest } from "../schema/requests.js";
import { isPayoutReorgedOut } from "../schema/payoutReorgs.js";
import { drawSponsorship } from "../schema/sponsorLedger.js";
import { transitionRequest } from "../schema/transitionRequest.js";
import { withTransaction } from "../schema/withTransaction.js";
import type { FillOrder, StuckFillPolicy } from "../src/chains/adapter.js";
import type { ChainAdapters } from "../src/chains/chainAdapters.js";
import type { ChainRegistry } from "../src/chains/chainRegistry.js";
import type { RequestStatus } from "../src/domain/requestStatus.js";
import type { FailReason } from "../src/domain/failReasons.js";
import { attemptFailReason } from "../src/domain/attemptFailReason.js";
import { nativeConversionOf } from "../src/domain/nativeConversion.js";
import type { FailedTransaction } from "../src/domain/failedTransaction.js";
import type { PriceSource } from "../src/pricing/priceSource.js";
import { requiredDepositConfirmations } from "./requiredDepositConfirmations.js";
import { fillWindowEnd } from "../src/domain/fillWindowEnd.js";
import { confirmationDelayMs } from "./confirmationDelayMs.js";
import { movedDepositTaken } from "./movedDepositTaken.js";
import type { ReceiptConfirmer } from "./createReceiptConfirmer.js";
import { failRequest } from "./failRequest.js";

/** A referrer that makes the devnet's solver refuse the fill, so integrators can exercise their refund handling. */
export const DEBUG_FORCE_REFUND_REFERRER = "debug-force-refund";

export const DEFAULT_STUCK_FILL_POLICY: StuckFillPolicy = {
  bumpAfterMs: 30_000,
  maxBumps: 3,
  maxBroadcastFailures: 10,
};

/** What a sponsored quote keeps for its draw (src/quote/createQuote.ts): USD micro-units, and the input-currency payment. */
type QuotedSponsor = {
  integrator: string;
  amountMicroUsd: string;
  payment?: { chainId: number; currency: string; amount: string; components: Record<string, string> };
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
  /** `success` on the fill's own receipt; without it, success waits for the indexed fill. */
  receipts?: ReceiptConfirmer;
};

function fillOrder(
  request: StoredRequest,
  amount: bigint,
  currencySymbol: string,
  conversion: FillOrder["conversion"],
): FillOrder {
  return {
    requestId: request.id,
    orderId: request.orderId,
    currency: request.destinationCurrency,
    amount,
    recipient: request.recipient,
    calls: request.calls.map((call) => ({ to: call.to, value: BigInt(call.value), data: call.data })),
    currencySymbol,
    ...(conversion ? { conversion } : {}),
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

  /**
   * A payout mined (the request succeeded) and then reorged out: followed as a sent fill is, so the same signed
   * payout (or its fee bump, on the same inputs) is broadcast again while it is missing and its inputs are unspent,
   * and never a second payout. The request stays `success`; reconcile queues this again until the payout is applied
   * anew.
   */
  async function followReorgedPayout(requestId: string): Promise<string> {
    const attempt = (await getFillAttempt(pool, requestId))!;
    const outcome = await deps.adapters.adapter(attempt.chainId).followFill(attempt, {
      pool,
      policy: deps.stuckFill ?? DEFAULT_STUCK_FILL_POLICY,
    });
    if (outcome.state === "mined") {
      logger.info({ requestId, txHash: outcome.txHash }, "reorged payout mined again");
      return `payout mined again: ${outcome.txHash}`;
    }
    if (outcome.state === "in-flight") {
      logger.warn({ requestId, txHash: outcome.txHash, action: outcome.action }, "reorged payout broadcast again");
      return `payout ${outcome.action}: ${outcome.txHash}`;
    }
    // Its inputs were spent by something else than a version of it, or it can no longer be mined: no second payout
    // is ever made; an operator must look.
    logger.error({ requestId, outcome }, "reorged payout cannot be broadcast again; operator action needed");
    return `payout lost: ${outcome.state}`;
  }

  return async function processFill(job: { data: { requestId: string } }): Promise<string> {
    const { requestId } = job.data;
    const request = await getRequest(pool, requestId);
    if (request?.status === "success" && (await isPayoutReorgedOut(pool, requestId)))
      return followReorgedPayout(requestId);
    if (!request || (request.status !== "pending" && request.status !== "submitted"))
      return `skipped: ${request?.status ?? "unknown"}`;

    let attempt = await getFillAttempt(pool, requestId);
    if (!attempt) {
      const [first] = await listRequestDeposits(pool, requestId);
      if (!first) return "skipped: no deposit";
      if (request.fillAmount === null) return "skipped: no fill amount";
      const amountOut = request.fillAmount;
      const origin = deps.adapters.adapter(first.chainId);
      const required = await requiredDepositConfirmations(first, {
        adapter: origin,
        registry: deps.registry,
        prices: deps.prices,
      });
      // The deposit was judged on time when first seen (mempool or block); it is filled once it has its confirmations,
      // within the chain's allowance for that wait (Bitcoin's 10-minute blocks are not held against it).
      const windowEnd = fillWindowEnd({
        deadline: request.deadline,
        requiredConfirmations: required,
        blockTimeSeconds: origin.chain.blockTimeSeconds,
      });
      let check = await origin.checkDeposit(first, required);
      if (check.state === "confirming" && Date.now() > windowEnd) {
        return fail(
          request,
          "DEPOSIT_CONFIRMATION_TIMEOUT",
          {
            message: `the deposit still lacked ${check.missingBlocks} confirmations at ${new Date(windowEnd).toISOString()}`,
          },
          { sent: false },
        );
      }
      if (check.state === "confirming") {
        await deps.enqueueFill(requestId, {
          delayMs: confirmationDelayMs(origin, check.missingBlocks),
          key: `${first.blockNumber + BigInt(check.missingBlocks)}`,
        });
        return `confirming: ${check.missingBlocks} blocks to go`;
      }
      // The same payment, mined again by a reorg: the request follows it, and its fill waits for its confirmations
      // there. One that cannot be moved (that block's deposit is another request's already) fails as reorged out.
      if (check.state === "moved" && (await moveAppliedDeposit(pool, requestId, first, check.to))) {
        logger.warn(
          { requestId, txHash: first.txHash, from: first.blockHash, to: check.to.blockHash },
          "deposit mined again in another block; following it",
        );
        await deps.enqueueFill(requestId, { delayMs: 200, key: `moved-${check.to.blockHash}` });
        return `moved: deposit now in block ${check.to.blockNumber}`;
      }
      if (check.state === "moved") {
        check = { state: "reorged", reorg: movedDepositTaken(first, { source: "fill-check", action: "fill" }) };
      }
      if (check.state === "reorged") {
        // Nothing arrived, so nothing is refunded and nothing is filled.
        const failReason = check.failReason ?? "DEPOSIT_REORGED";
        await withTransaction(pool, async (db) => {
          await markDepositReorged(db, first, check.reorg);
          await transitionRequest(db, {
            requestId,
            from: ["pending"],
            to: "failure",
            failReason,
            details: check.reorg,
          });
        });
        logger.warn({ requestId, txHash: first.txHash, reorg: check.reorg }, "deposit gone before the fill");
        return `failed: ${failReason}`;
      }
      if (Date.now() > windowEnd) {
        return fail(
          request,
          "PROTOCOL_DEADLINE_EXPIRED",
          { message: `not filled by ${new Date(windowEnd).toISOString()}, the end of its fill window` },
          { sent: false },
        );
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
      // A wrap or unwrap converts what the user brought (same chain): the solver spends the origin currency.
      const conversionKind = nativeConversionOf(request.requestType);
      const wrappedNative = deps.registry.wrappedNative(chain.chain.id);
      if (conversionKind && !wrappedNative) throw new Error(`chain ${chain.chain.id} has no wrapped native to convert`);
      const conversion = conversionKind && { kind: conversionKind, wrappedNative: wrappedNative!.address };
      const spent = conversion ? request.originCurrency : request.destinationCurrency;
      const spentSymbol = deps.registry.currency(chain.chain.id, spent)?.symbol ?? spent;
      const gasReserve =
        spent === chain.nativeCurrency
          ? await chain.estimateFee("fill", spent, request.calls.length, conversionKind)
          : 0n;
      const balance = await chain.balanceOf(chain.solverAddress, spent);
      if (balance < amountOut + gasReserve) {
        return fail(
          request,
          "SOLVER_BALANCE_TOO_LOW",
          {
            message: `the solver holds ${balance} of ${spentSymbol} on chain ${chain.chain.id} and needs ${amountOut + gasReserve}`,
          },
          { sent: false },
        );
      }
      const prepared = await chain.prepareFill(
        fillOrder(request, amountOut, currency?.symbol ?? request.destinationCurrency, conversion),
      );
      if ("refusal" in prepared) {
        const { failure, call } = prepared.refusal;
        return fail(request, attemptFailReason(request.requestType, failure.failReason), failure.details, {
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
      const sponsor = (request.quote as { sponsor?: QuotedSponsor } | null)?.sponsor;
      const signing = await withTransaction(pool, async (db) => {
        // Serialises signing per request across replicas; the nonce row lock serialises nonces per chain.
        await db.query("SELECT pg_advisory_xact_lock(hashtext($1))", [request.id]);
        const existing = await getFillAttempt(db, request.id);
        if (existing) return existing;
        // Failed meanwhile (a refund may be on its way): never sign a fill for it.
        const current = await getRequest(db, request.id, { forUpdate: true });
        if (current?.status !== "pending") return undefined;
        // The sponsor pays its share of the fees with the fill, in this transaction: no draw without a fill.
        if (sponsor) {
          const { payment } = sponsor;
          const draw = {
            integrator: sponsor.integrator,
            requestId: request.id,
            amountMicroUsd: BigInt(sponsor.amountMicroUsd),
            // Quotes made before payments were kept carry none.
            ...(payment && {
              payment: {
                chainId: payment.chainId,
                currency: payment.currency,
                amount: BigInt(payment.amount),
                components: Object.fromEntries(
                  Object.entries(payment.components).map(([name, amount]) => [name, BigInt(amount)]),
                ),
              },
            }),
          };
          if (!(await drawSponsorship(db, draw))) return "sponsor balance too low" as const;
        }
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
      if (signing === "sponsor balance too low") {
        return fail(
          request,
          "SPONSOR_BALANCE_TOO_LOW",
          {
            message: `the sponsor ${sponsor!.integrator} can no longer cover the ${sponsor!.amountMicroUsd} USD micro-units of fees it sponsored`,
          },
          { sent: false },
        );
      }
      attempt = signing;
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
        attemptFailReason(request.requestType, outcome.failure.failReason),
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
    const fill = { requestId, chainId: sent.chainId, txHash: outcome.txHash };
    if (outcome.state === "mined") await deps.receipts?.confirm(fill);
    else if (outcome.action !== "cancelling") deps.receipts?.watch(fill);
    return outcome.txHash;
  };
}
