import { type AppliedDeposit, MEMPOOL_BLOCK_HASH } from "../../../schema/chainFacts.js";
import type { DepositCheck } from "../adapter.js";
import type { EsploraClient } from "./createEsploraClient.js";

/**
 * Whether a Bitcoin deposit may be filled, asked of Esplora (not the poller, whose rows lag): `required` blocks
 * deep, and still where it was seen. One seen in the mempool that Esplora no longer knows was replaced (RBF) or
 * double-spent: DOUBLE_SPEND. One seen in a block that is now in the mempool, in another block or gone was
 * reorged out: DEPOSIT_REORGED (a new block fact of the same payment is refunded as a further deposit).
 */
export async function checkBitcoinDeposit(
  client: Pick<EsploraClient, "txStatus" | "tipHeight">,
  deposit: AppliedDeposit,
  required: number,
  now = Date.now(),
): Promise<DepositCheck> {
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
  if (!seenInMempool && (!status || !status.confirmed || status.block_hash !== deposit.blockHash))
    return {
      state: "reorged",
      reorg: {
        detectedAt: now,
        source: "fill-check",
        reason: !status
          ? "deposit transaction not found"
          : status.confirmed
            ? "deposit mined in another block"
            : "deposit back in the mempool",
        failReason: "DEPOSIT_REORGED",
        action: "fill",
        blockNumber: Number(deposit.blockNumber),
        blockHash: deposit.blockHash,
      },
    };
  const confirmations = (await client.tipHeight()) - status!.block_height! + 1;
  return confirmations >= required
    ? { state: "final" }
    : { state: "confirming", missingBlocks: required - confirmations };
}
