import type pg from "pg";
import type { Logger } from "pino";
import {
  type SweepableDeposit,
  getDepositSweep,
  insertDepositSweep,
  markDepositSweepConfirmed,
} from "../schema/depositSweeps.js";
import { type PositionPayload, withPosition } from "./withPosition.js";
import { requestDepositAddressType } from "../schema/depositAddresses.js";
import { getRequest } from "../schema/requests.js";
import type { ChainAdapters } from "../src/chains/chainAdapters.js";

export type SweepDeps = { pool: pg.Pool; adapters: ChainAdapters; logger: Logger };

/**
 * Sweeps one deposit-address deposit to the depository once its request succeeded. The signed sweep is stored (keyed
 * by the deposit's outpoint) before it is broadcast; a later run re-sends the stored one until it is mined, then marks
 * it confirmed. A deposit paid to the depository itself is stored as skipped. A strict EXACT_OUTPUT request (the spec's
 * rule) keeps only its quoted input: the sweep itself pays the excess back to `refundTo`.
 */
export function createSweepProcessor(deps: SweepDeps) {
  const { pool, logger } = deps;
  return async function processSweep(job: { data: PositionPayload<SweepableDeposit> }): Promise<string> {
    const deposit = withPosition<SweepableDeposit>(job.data);
    const deposits = deps.adapters.deposits(deposit.chainId);
    // The origin's refunder sends what the worker spends of a deposit: a sweep, like a refund.
    const sender = deps.adapters.refunder(deposit.chainId);
    if (!deposits.signSweep || !sender.transactionMined) return "skipped: no deposit address key";
    const stored = await getDepositSweep(pool, deposit);
    if (stored?.skipped) return `skipped: ${stored.skipped}`;
    if (stored?.sweepTxHash && stored.rawTx) {
      if (stored.confirmedAt) return stored.sweepTxHash;
      if (await sender.transactionMined(stored.sweepTxHash)) {
        await markDepositSweepConfirmed(pool, deposit);
        return stored.sweepTxHash;
      }
      await sender.broadcast({ rawTx: stored.rawTx, txHash: stored.sweepTxHash });
      return stored.sweepTxHash;
    }
    const request = await getRequest(pool, deposit.requestId);
    const strict = (await requestDepositAddressType(pool, deposit.requestId)) === "strict";
    const excess =
      request && strict && request.tradeType === "EXACT_OUTPUT" && request.refundTo
        ? { recipient: request.refundTo, keep: request.amountIn }
        : undefined;
    const signed = await deposits.signSweep(deposit, excess);
    // Another run stored its own meanwhile: send that one.
    if (!(await insertDepositSweep(pool, deposit, signed))) return processSweep(job);
    if ("skip" in signed) return `skipped: ${signed.skip}`;
    await sender.broadcast(signed);
    logger.info(
      {
        requestId: deposit.requestId,
        depositTxHash: deposit.txHash,
        sweepTxHash: signed.txHash,
        amount: signed.amount.toString(),
        returned: signed.returned?.amount.toString(),
      },
      "deposit address swept",
    );
    return signed.txHash;
  };
}
