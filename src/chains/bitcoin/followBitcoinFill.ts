import type { StoredFillAttempt } from "../../../schema/fillAttempts.js";
import { UpstreamFailureError } from "../../domain/errors.js";
import type { FillOutcome, StuckFillPolicy } from "../adapter.js";
import type { EsploraClient } from "./createEsploraClient.js";

type Signed = { rawTx: string; txHash: string };

export type FollowBitcoinFillDeps = {
  esplora: Pick<EsploraClient, "tx" | "txStatus" | "broadcast">;
  policy: StuckFillPolicy;
  now?: number;
  /** The replacement of a stuck payout at a higher fee (`bumpPayoutFee`), or undefined when it has none. */
  bump(rawTx: string, inputValues: bigint[]): Promise<Signed | undefined>;
  /** Stores the replacement before it is broadcast; false when another run replaced the payout first. */
  storeReplacement(replaced: string, next: Signed): Promise<boolean>;
  /** Counts a refusal by the node; returns how many there have been. */
  recordBroadcastFailure(error: string): Promise<number>;
};

/**
 * Follows a sent Bitcoin payout: mined once any of its versions (the stored one, the ones it replaced) is in a block;
 * re-broadcast when the node does not know it; replaced at a higher fee on the same inputs (BIP125) once it has
 * waited `bumpAfterMs` in the mempool, up to `maxBumps` times. A payout no version of which the node ever takes,
 * `maxBroadcastFailures` times over, can never pay: `cancelled` (nothing was spent, the request is refunded).
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

  const waiting = versions.find((_, index) => statuses[index] !== undefined);
  if (waiting !== attempt.txHash) {
    // Not in the node (never sent, dropped, or stored and not yet broadcast as a replacement): send it (again).
    try {
      await esplora.broadcast(attempt.rawTx);
      return { state: "in-flight", txHash: attempt.txHash, action: "re-sent" };
    } catch (error) {
      const failures = await deps.recordBroadcastFailure((error as Error).message);
      if (waiting) return { state: "in-flight", txHash: waiting, action: "re-sent" };
      if (failures >= policy.maxBroadcastFailures) return { state: "cancelled", nonceSpentBy: "", neverAccepted: true };
      throw new UpstreamFailureError(`the node refused fill ${attempt.txHash}: ${(error as Error).message}`, error);
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
    await deps.recordBroadcastFailure((error as Error).message);
  }
  return { state: "in-flight", txHash: next.txHash, action: "bumped" };
}
