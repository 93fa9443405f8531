import type { TransactionPort } from "../src/chains/adapter.js";
import { resendWithdrawal } from "./resendWithdrawal.js";

/**
 * Where a sent Depository withdrawal (a refund, an app-fee payout) stands: broadcast again while the node has no
 * receipt of it (lost, or reorged out) — re-signed and stored through `replace` first where it expired unlanded
 * (resendWithdrawal) — left to the indexer once mined, stored under the chain's own hash when the receipt names another;
 * "reverted" paid nothing, and re-sending it cannot change that.
 * A chain whose adapter reads no receipts (Bitcoin) is only re-sent. Node failures are thrown.
 */
export async function followSentWithdrawal(
  chain: Pick<TransactionPort, "readReceipt" | "broadcast" | "resignExpired">,
  sent: { rawTx: string; txHash: string },
  replace?: (next: { rawTx: string; txHash: string }) => Promise<boolean>,
): Promise<
  { state: "sent" | "resigned"; txHash: string } | { state: "mined" } | { state: "reverted"; blockNumber: bigint }
> {
  const receipt = chain.readReceipt ? await chain.readReceipt(sent.txHash) : null;
  if (!receipt) return resendWithdrawal(chain, sent, replace);
  // Stored under another id than the chain's own name for it (the exchange's): stored under the chain's from now on,
  // which its indexed facts carry.
  if (receipt.succeeded && receipt.txHash !== undefined && receipt.txHash !== sent.txHash && replace)
    await replace({ rawTx: sent.rawTx, txHash: receipt.txHash });
  return receipt.succeeded ? { state: "mined" } : { state: "reverted", blockNumber: receipt.blockNumber };
}
