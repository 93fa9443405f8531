import type { FillOutcome, StuckFillPolicy } from "../adapter.js";
import type { SignedBytes, StoredFillAttempt } from "../fillLedger.js";

/** Where one signature stands on the chain: null when the node does not know it. */
export type SvmSignatureStatus = {
  slot: number;
  err: unknown;
  confirmationStatus?: "processed" | "confirmed" | "finalized";
} | null;

/** What a landed (failed) fill shows: its slot, block time and fee. */
export type SvmLanded = { slot: bigint; timestamp: bigint; fee: bigint };

export type FollowSvmFillDeps = {
  policy: StuckFillPolicy;
  /** The recent blockhash a stored transaction was signed with. */
  blockhashOf(rawTx: string): string;
  /** Whether a transaction with this blockhash can still land. */
  blockhashValid(blockhash: string): Promise<boolean>;
  statuses(signatures: string[]): Promise<SvmSignatureStatus[]>;
  landed(signature: string): Promise<SvmLanded>;
  /** Sends the bytes; throws when the node refuses them. */
  send(rawTx: string): Promise<void>;
  /** The same instructions signed again with a fresh blockhash. */
  resign(rawTx: string): Promise<SignedBytes>;
  /** Stores the re-signed fill before it is sent; false when another run replaced the stored one first. */
  storeReplacement(replaced: string, next: SignedBytes): Promise<boolean>;
  /** Counts a refusal by the node; returns how many there have been. */
  recordBroadcastFailure(error: string): Promise<number>;
};

/**
 * Follows a stored Solana fill. Mined once any version (the stored one, the ones it replaced) is `finalized`; reverted
 * when one landed with an error (its fee is spent, it paid nothing). A version that landed and is not finalized yet is
 * waited for. None landed: while the stored version's blockhash is valid it is sent again (the node may have dropped
 * it); once expired, no version can ever land (each was signed with an older blockhash), so the same instructions
 * are signed with a fresh blockhash, stored, then sent — up to `maxBumps` times — after which the fill is given up:
 * `cancelled`, the request refunded, with no transaction of it able to land. The blockhash is asked before the
 * statuses, so one that landed just before expiring is seen.
 */
export async function followSvmFill(attempt: StoredFillAttempt, deps: FollowSvmFillDeps): Promise<FillOutcome> {
  const expired = !(await deps.blockhashValid(deps.blockhashOf(attempt.rawTx)));
  const versions = [attempt.txHash, ...[...attempt.previousTxHashes].reverse()];
  const statuses = await deps.statuses(versions);
  for (const [index, status] of statuses.entries()) {
    if (!status) continue;
    const txHash = versions[index]!;
    if (status.err !== null) {
      const landed = await deps.landed(txHash);
      return {
        state: "reverted",
        txHash,
        failure: {
          failReason: "TRANSACTION_REVERTED",
          details: { message: "the fill transaction failed on Solana", err: status.err },
        },
        failedTransaction: {
          txHash,
          blockNumber: landed.slot,
          timestamp: landed.timestamp,
          fee: landed.fee,
          call: { from: attempt.solver, to: attempt.recipient, data: "0x", value: attempt.amount.toString() },
        },
      };
    }
    if (status.confirmationStatus !== "finalized") return { state: "in-flight", txHash, action: "re-sent" };
    const landed = await deps.landed(txHash);
    return { state: "mined", txHash, blockNumber: landed.slot, fee: landed.fee };
  }
  if (!expired) {
    try {
      await deps.send(attempt.rawTx);
    } catch (error) {
      // Refused (the solver's balance, a program's check): its blockhash expiring decides what becomes of it.
      await deps.recordBroadcastFailure(error instanceof Error ? error.message : String(error));
    }
    return { state: "in-flight", txHash: attempt.txHash, action: "re-sent" };
  }
  const { policy } = deps;
  const refused = attempt.broadcastFailures >= policy.maxBroadcastFailures;
  if (refused || attempt.bumps >= policy.maxBumps)
    return { state: "cancelled", nonceSpentBy: attempt.txHash, neverAccepted: refused };
  const next = await deps.resign(attempt.rawTx);
  if (!(await deps.storeReplacement(attempt.txHash, next)))
    return { state: "in-flight", txHash: attempt.txHash, action: "re-sent" };
  try {
    await deps.send(next.rawTx);
  } catch (error) {
    // Stored: the next run sends it again while its blockhash is valid.
    await deps.recordBroadcastFailure(error instanceof Error ? error.message : String(error));
  }
  return { state: "in-flight", txHash: next.txHash, action: "bumped" };
}
