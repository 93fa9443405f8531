import type { TransactionPort } from "../src/chains/adapter.js";

type Sent = { rawTx: string; txHash: string };

/**
 * Sends a stored withdrawal (a refund, a payout) that is not on chain again — or, on a chain whose transactions
 * expire unlanded (`resignExpired`: Solana's blockhash), once this one expired, its re-signed replacement: stored
 * first through `replace` (false when another run replaced it first, and then nothing is sent), then sent. Without
 * `replace` it is only re-sent. Returns the transaction stored now.
 */
export async function resendWithdrawal(
  chain: Pick<TransactionPort, "broadcast" | "resignExpired">,
  sent: Sent,
  replace?: (next: Sent) => Promise<boolean>,
): Promise<{ state: "sent" | "resigned"; txHash: string }> {
  const next = replace && (await chain.resignExpired?.(sent));
  if (!next) {
    await chain.broadcast(sent);
    return { state: "sent", txHash: sent.txHash };
  }
  if (!(await replace(next))) return { state: "sent", txHash: sent.txHash };
  await chain.broadcast(next);
  return { state: "resigned", txHash: next.txHash };
}
