import { type Hex, encodePacked, keccak256 } from "viem";
import type { FactPosition } from "./factPosition.js";

/**
 * The id of the child request a further deposit for an already paid order becomes: derived from the parent and
 * the deposit's place in its transaction, so applying it twice finds the same child — also when a reorg mines
 * the same deposit in another block (its refund is keyed the same way: one per deposit).
 */
export function childRequestId(
  parentId: string,
  deposit: { chainId: number; txHash: string; position: FactPosition },
): Hex {
  return keccak256(
    encodePacked(
      ["string", "bytes32", "uint256", "string", "uint256"],
      ["crossfill.child-request", parentId as Hex, BigInt(deposit.chainId), deposit.txHash, BigInt(deposit.position)],
    ),
  );
}
