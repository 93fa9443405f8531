import type { Connection } from "@solana/web3.js";
import type { DepositCheck } from "../adapter.js";
import type { AppliedDeposit } from "../chainFacts.js";
import { solanaCall } from "./solanaCall.js";

/**
 * Whether a Solana deposit may be filled: its signature still landed, without error, in the slot it was recorded at,
 * `finalized` (a confirmed transaction may still leave with its fork) and `required` slots deep. Gone or failed is
 * DEPOSIT_REORGED; landed in another slot (a fork that took it again) is moved there.
 */
export async function checkSvmDeposit(
  connection: Connection,
  chainId: number,
  deposit: AppliedDeposit,
  required: number,
  movedTo: (slot: number) => Promise<Extract<DepositCheck, { state: "moved" }>["to"] | undefined>,
): Promise<DepositCheck> {
  const { value } = await solanaCall(chainId, "getSignatureStatuses", () =>
    connection.getSignatureStatuses([deposit.txHash], { searchTransactionHistory: true }),
  );
  const status = value[0];
  if (!status || status.err !== null)
    return { state: "reorged", reorg: { txHash: deposit.txHash, slot: Number(deposit.blockNumber), status } };
  if (BigInt(status.slot) !== deposit.blockNumber) {
    const to = await movedTo(status.slot);
    return to
      ? { state: "moved", to }
      : { state: "reorged", reorg: { txHash: deposit.txHash, slot: Number(deposit.blockNumber), status } };
  }
  const head = await solanaCall(chainId, "getSlot", () => connection.getSlot("confirmed"));
  const depth = head - status.slot + 1;
  if (status.confirmationStatus !== "finalized") {
    // The slots the cluster's finalized slot trails the deposit by: it shrinks as the cluster roots slots, so each
    // look names a later slot to wait for.
    const finalized = await solanaCall(chainId, "getSlot", () => connection.getSlot("finalized"));
    return { state: "confirming", missingBlocks: Math.max(1, status.slot - finalized, required - depth) };
  }
  return depth >= required ? { state: "final" } : { state: "confirming", missingBlocks: required - depth };
}
