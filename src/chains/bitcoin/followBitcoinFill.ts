import { Transaction } from "bitcoinjs-lib";
import type { StoredFillAttempt } from "../fillLedger.js";
import { UpstreamFailureError } from "../../domain/errors.js";
import type { FillOutcome, StuckFillPolicy } from "../adapter.js";
import { BroadcastRefusedError } from "./BroadcastRefusedError.js";
import type { EsploraClient } from "./createEsploraClient.js";

type Signed = { rawTx: string; txHash: string };

export type FollowBitcoinFillDeps = {
  esplora: Pick<EsploraClient, "tx" | "txStatus" | "broadcast" | "outspend" | "tipHeight">;
  policy: StuckFillPolicy;
  /**
   * Blocks a cancellation (or another spend of the payout's inputs) must have before the payout counts as cancelled
   * and the request is refunded: a shallow reorg could otherwise bring the payout back. At least 1.
   */
  cancelConfirmations: number;
  now?: number;
  /** The replacement of a stuck payout at a higher fee (`bumpPayoutFee`), or undefined when it has none. */
  bump(rawTx: string, inputValues: bigint[]): Promise<Signed | undefined>;
  /** Stores the replacement before it is broadcast; false when another run replaced the payout first. */
  storeReplacement(replaced: string, next: Signed): Promise<boolean>;
  /** Counts a refusal by the node; returns how many there have been. */
  recordBroadcastFailure(error: string): Promise<number>;
  /** The self-spend of the payout's inputs that cancels it (`cancelPayout`). */
  cancel(rawTx: string, inputValues: bigint[]): Promise<Signed>;
  /** Stores the cancellation before it is broadcast; false when another run stored one first or the request is settled. */
  storeCancel(cancel: Signed): Promise<boolean>;
};

/**
 * Follows a sent Bitcoin payout: mined once any of its versions (the stored one, the ones it replaced) is in a block;
 * re-broadcast when the node does not know it; replaced at a higher fee on the same inputs (BIP125) once it has
 * waited `bumpAfterMs` in the mempool, up to `maxBumps` times. Only the node's own refusal counts against it (a
 * timeout, network error or 5xx is retried: the payout may have got through). A payout the node refuses
 * `maxBroadcastFailures` times over may still sit in other nodes' mempools and be mined: it is cancelled by spending
 * its inputs back to the solver at a higher fee (stored before it is broadcast), and `cancelled` — the request is
 * refunded — only once that cancellation, or another transaction spending its inputs, has `cancelConfirmations`
 * blocks: then no version of the payout can ever be. Until then the request stays `submitted`, so its inputs stay locked (lockSolverWallet).
 */
export async function followBitcoinFill(attempt: StoredFillAttempt, deps: FollowBitcoinFillDeps): Promise<FillOutcome> {
  const { esplora, policy } = deps;
  const versions = [attempt.txHash, ...[...attempt.previousTxHashes].reverse()];
  const statuses = await Promise.all(versions.map((hash) => esplora.txStatus(hash)));
  for (const [index, status] of statuses.entries()) {
    if (!status?.confirmed || status.block_height === undefined) continue;
    const tx = await esplora.tx(versions[index]!);
    return { state: "mined", txHash: versions[index]!, blockNumber: BigInt(status.block_height), fee: BigInt(tx!.fee) };
  }
  if (attempt.cancelTxHash && attempt.cancelRawTx)
    return followCancel(attempt, { txHash: attempt.cancelTxHash, rawTx: attempt.cancelRawTx }, versions, deps);

  const waiting = versions.find((_, index) => statuses[index] !== undefined);
  if (waiting !== attempt.txHash) {
    // Not in the node (never sent, dropped, or stored and not yet broadcast as a replacement): send it (again).
    try {
      await esplora.broadcast(attempt.rawTx);
      return { state: "in-flight", txHash: attempt.txHash, action: "re-sent" };
    } catch (error) {
      if (!(error instanceof BroadcastRefusedError)) throw error;
      const failures = await deps.recordBroadcastFailure(error.message);
      if (waiting) return { state: "in-flight", txHash: waiting, action: "re-sent" };
      if (failures >= policy.maxBroadcastFailures) return startCancel(attempt, versions, deps);
      throw new UpstreamFailureError(`the node refused fill ${attempt.txHash}: ${error.message}`, error);
    }
  }

  const now = deps.now ?? Date.now();
  if (now - attempt.sentAt.getTime() < policy.bumpAfterMs || attempt.bumps >= policy.maxBumps)
    return { state: "in-flight", txHash: attempt.txHash, action: "re-sent" };
  const sent = await esplora.tx(attempt.txHash);
  const inputValues = sent?.vin.map((input) => BigInt(input.prevout?.value ?? 0));
  const next = inputValues && (await deps.bump(attempt.rawTx, inputValues));
  if (!next || !(await deps.storeReplacement(attempt.txHash, next)))
    return { state: "in-flight", txHash: attempt.txHash, action: "re-sent" };
  try {
    await esplora.broadcast(next.rawTx);
  } catch (error) {
    // Stored: the next run re-sends it, or finds the version it replaced mined.
    if (error instanceof BroadcastRefusedError) await deps.recordBroadcastFailure(error.message);
  }
  return { state: "in-flight", txHash: next.txHash, action: "bumped" };
}

/** The payout's inputs as outpoints, in input order. */
function payoutInputs(rawTx: string) {
  return Transaction.fromHex(rawTx).ins.map((input) => ({
    txid: Buffer.from(input.hash).reverse().toString("hex"),
    vout: input.index,
  }));
}

/** Signs, stores and broadcasts the cancellation of a payout the node keeps refusing. */
async function startCancel(attempt: StoredFillAttempt, versions: string[], deps: FollowBitcoinFillDeps) {
  const inputs = payoutInputs(attempt.rawTx);
  // The payout may be unknown to the node: what each input spends is read from the transaction that made it.
  const values = await Promise.all(inputs.map(async ({ txid, vout }) => (await deps.esplora.tx(txid))?.vout[vout]));
  if (values.some((value) => value === undefined)) {
    // An input's own transaction is gone (reorged out): nothing can spend it now, the payout included.
    const spender = await confirmedForeignSpender(attempt.rawTx, versions, deps);
    if (spender) return { state: "cancelled" as const, nonceSpentBy: spender, neverAccepted: true };
    throw new UpstreamFailureError(`the node knows no longer what fill ${attempt.txHash} spends; retrying`);
  }
  const cancel = await deps.cancel(
    attempt.rawTx,
    values.map((output) => BigInt(output!.value)),
  );
  // Another run stored one first (the next run follows it), or the request is settled: a `success` whose payout a
  // reorg dropped is never cancelled, and an operator must look at a payout the node will not take again.
  if (!(await deps.storeCancel(cancel)))
    throw new UpstreamFailureError(
      `fill ${attempt.txHash} is refused by the node and cannot be cancelled here (cancelled already, or settled)`,
    );
  return followCancel(attempt, cancel, versions, deps);
}

/**
 * A stored cancellation: `cancelled` once it (or another transaction spending the payout's inputs) is in a block;
 * otherwise (re-)sent and followed. A payout version mined first was checked by the caller.
 */
async function followCancel(
  attempt: StoredFillAttempt,
  cancel: Signed,
  versions: string[],
  deps: FollowBitcoinFillDeps,
): Promise<FillOutcome> {
  const cancelling = { state: "in-flight" as const, txHash: cancel.txHash, action: "cancelling" as const };
  const status = await deps.esplora.txStatus(cancel.txHash);
  if (status?.confirmed) {
    if (await buried(status, deps)) return { state: "cancelled", nonceSpentBy: cancel.txHash, neverAccepted: true };
    return cancelling;
  }
  if (status) return cancelling;
  try {
    await deps.esplora.broadcast(cancel.rawTx);
    return cancelling;
  } catch (error) {
    if (!(error instanceof BroadcastRefusedError)) return cancelling; // stored: the next run sends it again
    // Refused: its inputs may be spent already — by a payout version (the caller looked), or by something else.
    const spender = await confirmedForeignSpender(attempt.rawTx, [...versions, cancel.txHash], deps);
    if (spender) return { state: "cancelled", nonceSpentBy: spender, neverAccepted: true };
    await deps.recordBroadcastFailure(error.message);
    return cancelling;
  }
}

/** A confirmed transaction, none of `ours`, spending one of the payout's inputs: no version of it can be mined. */
async function confirmedForeignSpender(rawTx: string, ours: string[], deps: FollowBitcoinFillDeps) {
  for (const { txid, vout } of payoutInputs(rawTx)) {
    const spend = await deps.esplora.outspend(txid, vout).catch(() => undefined);
    if (!spend?.spent || !spend.txid || ours.includes(spend.txid)) continue;
    const status = await deps.esplora.txStatus(spend.txid);
    if (status?.confirmed && (await buried(status, deps))) return spend.txid;
  }
  return undefined;
}

/** Whether a confirmed transaction has the cancellation's confirmations. */
async function buried(status: { block_height?: number }, deps: FollowBitcoinFillDeps): Promise<boolean> {
  if (status.block_height === undefined) return false;
  return (await deps.esplora.tipHeight()) - status.block_height + 1 >= Math.max(1, deps.cancelConfirmations);
}
