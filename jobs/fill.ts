import type pg from "pg";
import type { Logger } from "pino";
import {
  type Address,
  type Hex,
  type LocalAccount,
  encodeFunctionData,
  getAddress,
  parseTransaction,
  zeroAddress,
} from "viem";
import { receiverAbi } from "../contracts/abis.js";
import { listRequestDeposits, markDepositReorged } from "../schema/chainFacts.js";
import { getFillAttempt, insertFillAttempt } from "../schema/fillAttempts.js";
import { type StoredRequest, getRequest } from "../schema/requests.js";
import { transitionRequest } from "../schema/transitionRequest.js";
import { withTransaction } from "../schema/withTransaction.js";
import type { ChainRegistry } from "../src/chains/chainRegistry.js";
import type { EvmChainClient } from "../src/chains/evmChainClient.js";
import { findRevert } from "../src/chains/findRevert.js";
import { GAS_ESTIMATES } from "../src/chains/gasEstimates.js";
import type { FailReason } from "../src/domain/failReasons.js";
import type { FailedTransaction } from "../src/domain/failedTransaction.js";
import type { PriceSource } from "../src/pricing/priceSource.js";
import { checkDeposit } from "./checkDeposit.js";
import { classifyFillRevert } from "./classifyFillRevert.js";
import { failRequest } from "./failRequest.js";
import { DEFAULT_STUCK_FILL_POLICY, type StuckFillPolicy, followFill } from "./followFill.js";
import { type SolverCall, prepareSolverTransaction, signSolverTransaction } from "./solverTransaction.js";

/**
 * A deposit made in time but not filled by its order's deadline plus this window is refunded instead: the
 * solver will not pay out an order the user has long stopped waiting for.
 */
export const FILL_WINDOW_AFTER_DEADLINE_MS = 10 * 60_000;

/** A referrer that makes the devnet's solver refuse the fill, so integrators can exercise their refund handling. */
export const DEBUG_FORCE_REFUND_REFERRER = "debug-force-refund";

export type FillDeps = {
  pool: pg.Pool;
  client: (chainId: number) => EvmChainClient;
  registry: ChainRegistry;
  solver: LocalAccount;
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

function fillCall(request: StoredRequest, amountOut: bigint, receiver: Address): SolverCall {
  const currency = request.destinationCurrency as Address;
  const calls = request.calls.map((call) => ({
    to: call.to as Address,
    value: BigInt(call.value),
    data: call.data as Hex,
  }));
  return {
    to: receiver,
    data: encodeFunctionData({
      abi: receiverAbi,
      functionName: "fill",
      args: [request.id as Hex, currency, amountOut, request.recipient as Address, calls],
    }),
    value: currency === zeroAddress ? amountOut : 0n,
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
  const { pool, logger, solver } = deps;

  async function fail(
    request: StoredRequest,
    failReason: FailReason,
    details: Record<string, unknown>,
    failedTransaction?: FailedTransaction,
  ): Promise<string> {
    const [deposit] = await listRequestDeposits(pool, request.id);
    const refundId = await withTransaction(pool, (db) =>
      failRequest(db, { request, from: ["pending", "submitted"], failReason, deposit, details, failedTransaction }),
    );
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
        return fail(request, "PROTOCOL_DEADLINE_EXPIRED", {
          message: `not filled within ${FILL_WINDOW_AFTER_DEADLINE_MS / 1000} s of the order's deadline`,
        });
      }
      const origin = deps.client(first.chainId);
      const check = await checkDeposit(first, { chain: origin, registry: deps.registry, prices: deps.prices });
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
        return fail(request, "MANUAL_ADMIN_REFUND", {
          message: `the devnet solver refuses fills with referrer ${DEBUG_FORCE_REFUND_REFERRER}`,
        });
      }
      const chain = deps.client(request.destinationChainId);
      const currency = deps.registry.currency(chain.chain.id, request.destinationCurrency);
      const native = request.destinationCurrency === zeroAddress;
      const gasReserve = native
        ? (GAS_ESTIMATES.fillNative + GAS_ESTIMATES.perCall * BigInt(request.calls.length)) * (await chain.gasPrice())
        : 0n;
      const balance = await chain.balanceOf(solver.address, request.destinationCurrency as Address);
      if (balance < amountOut + gasReserve) {
        return fail(request, "SOLVER_BALANCE_TOO_LOW", {
          message: `the solver holds ${balance} of ${currency?.symbol ?? request.destinationCurrency} on chain ${chain.chain.id} and needs ${amountOut + gasReserve}`,
        });
      }
      const call = fillCall(request, amountOut, chain.chain.receiver as Address);
      try {
        const prepared = await prepareSolverTransaction(chain, solver, call);
        attempt = await withTransaction(pool, async (db) => {
          // Serialises signing per request across replicas; the nonce row lock serialises nonces per chain.
          await db.query("SELECT pg_advisory_xact_lock(hashtext($1))", [request.id]);
          const existing = await getFillAttempt(db, request.id);
          if (existing) return existing;
          // Failed meanwhile (a refund may be on its way): never sign a fill for it.
          const current = await getRequest(db, request.id, { forUpdate: true });
          if (current?.status !== "pending") return undefined;
          const signed = await signSolverTransaction(db, chain, solver, prepared);
          const stored = {
            requestId: request.id,
            chainId: chain.chain.id,
            solver: solver.address,
            nonce: signed.nonce,
            txHash: signed.txHash,
            rawTx: signed.rawTx,
            currency: request.destinationCurrency,
            amount: amountOut,
            recipient: request.recipient,
          };
          await insertFillAttempt(db, stored);
          return getFillAttempt(db, request.id);
        });
      } catch (error) {
        const revert = findRevert(error);
        if (!revert) throw error;
        const failure = classifyFillRevert(revert.data, {
          recipient: request.recipient,
          currencySymbol: currency?.symbol ?? request.destinationCurrency,
        });
        return fail(request, failure.failReason, failure.details, {
          txHash: null,
          blockNumber: null,
          timestamp: null,
          fee: null,
          call: { from: solver.address, to: getAddress(call.to), data: call.data, value: call.value.toString() },
        });
      }
    }
    if (!attempt) return "skipped: no longer pending";
    const sent = attempt;
    const outcome = await followFill(sent, {
      pool,
      chain: deps.client(sent.chainId),
      solver,
      policy: deps.stuckFill ?? DEFAULT_STUCK_FILL_POLICY,
    });
    if (outcome.state === "mined" && !outcome.success) {
      // Mined and reverted: its nonce is spent, so it can never pay; the deposit goes back.
      const failure = classifyFillRevert(undefined, {
        recipient: request.recipient,
        currencySymbol: request.destinationCurrency,
      });
      // Re-priced versions differ only in fees: the stored one carries the call that reverted.
      const sentTx = parseTransaction(sent.rawTx as Hex);
      const block = await deps.client(sent.chainId).publicClient.getBlock({ blockNumber: outcome.blockNumber });
      return fail(
        request,
        failure.failReason,
        { ...failure.details, fillTxHash: outcome.txHash, message: "the fill transaction reverted on-chain" },
        {
          txHash: outcome.txHash,
          blockNumber: outcome.blockNumber,
          timestamp: block.timestamp,
          fee: outcome.fee,
          call: {
            from: getAddress(sent.solver),
            to: getAddress(sentTx.to!),
            data: sentTx.data ?? "0x",
            value: (sentTx.value ?? 0n).toString(),
          },
        },
      );
    }
    if (outcome.state === "cancelled") {
      return fail(request, outcome.neverAccepted ? "TRANSACTION_SUBMISSION_FAILED" : "TRANSACTION_NOT_INCLUDED", {
        message: outcome.neverAccepted
          ? "the node refused the fill transaction; its nonce was spent on a cancellation"
          : "the fill was not mined within the gas-bump window; its nonce was spent on a cancellation",
        fillTxHashes: [...sent.previousTxHashes, sent.txHash],
        nonceSpentBy: outcome.nonceSpentBy,
      });
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
