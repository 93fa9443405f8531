import { type Hex, encodePacked, keccak256 } from "viem";

/**
 * The id of the child request a further deposit for an already paid order becomes: derived from the parent and
 * the deposit as mined (a deposit re-mined in another block is another fact), so applying it twice finds the same.
 */
export function childRequestId(
  parentId: string,
  deposit: { chainId: number; txHash: string; logIndex: number; blockHash: string },
): Hex {
  return keccak256(
    encodePacked(
      ["string", "bytes32", "uint256", "string", "uint256", "string"],
      [
        "crossfill.child-request",
        parentId as Hex,
        BigInt(deposit.chainId),
        deposit.txHash,
        BigInt(deposit.logIndex),
        deposit.blockHash,
      ],
    ),
  );
}
