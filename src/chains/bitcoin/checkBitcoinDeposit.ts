import { type AppliedDeposit, MEMPOOL_BLOCK_HASH } from "../chainFacts.js";
import type { DepositCheck } from "../adapter.js";
import type { EsploraClient } from "./createEsploraClient.js";

/**
 * Whether a Bitcoin deposit may be filled, asked of Esplora (not the poller, whose rows lag): `required` blocks
 * deep, and still where it was seen. One seen in the mempool that Esplora no longer knows was replaced (RBF) or
 * double-spent: DOUBLE_SPEND. One seen in a block that is now in the mempool or gone was reorged out:
 * DEPOSIT_REORGED; one now confirmed in another block moved there with its transaction.
 */
export async function checkBitcoinDeposit(
  client: Pick<EsploraClient, "txStatus" | "tipHeight">,
  deposit: AppliedDeposit,
  required: number,
  now = Date.now(),
): Promise<DepositCheck> {
  // The tip first: a reorg between the two reads then shows in the status (gone, or in another block), never as a
  // stale confirmation counted against a newer tip.
  const tip = await client.tipHeight();
  const status = await client.txStatus(deposit.txHash);
  const seenInMempool = deposit.blockHash === MEMPOOL_BLOCK_HASH;
  if (seenInMempool && !status)
    return {
      state: "reorged",
      failReason: "DOUBLE_SPEND",
      reorg: {
        detectedAt: now,
        source: "fill-check",
        reason: "deposit left the mempool without confirming (replaced or double-spent)",
        failReason: "DOUBLE_SPEND",
        action: "fill",
      },
    };
  if (seenInMempool && !status!.confirmed) return { state: "confirming", missingBlocks: Math.max(1, required) };
  // Mined again in another block: the same transaction, so the same output and payment.
  if (!seenInMempool && status?.confirmed && status.block_hash !== deposit.blockHash)
    return {
      state: "moved",
      to: {
        logIndex: deposit.logIndex,
        blockNumber: BigInt(status.block_height!),
        blockHash: status.block_hash!,
        timestamp: BigInt(status.block_time ?? Math.floor(now / 1000)),
      },
    };
  if (!seenInMempool && (!status || !status.confirmed))
    return {
      state: "reorged",
      reorg: {
        detectedAt: now,
        source: "fill-check",
        reason: status ? "deposit back in the mempool" : "deposit transaction not found",
        failReason: "DEPOSIT_REORGED",
        action: "fill",
        blockNumber: Number(deposit.blockNumber),
        blockHash: deposit.blockHash,
      },
    };
  const confirmations = tip - status!.block_height! + 1;
  return confirmations >= required
    ? { state: "final" }
    : { state: "confirming", missingBlocks: required - confirmations };
}
