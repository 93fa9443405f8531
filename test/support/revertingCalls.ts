import type pg from "pg";
import { encodeFunctionData, zeroAddress } from "viem";
import { callTargetAbi } from "../../contracts/abis.js";

/** A destination call that passes a quote's simulation: the devnet CallTarget credits `beneficiary` nothing. */
export function harmlessCall(callTarget: string, beneficiary: string) {
  return {
    to: callTarget,
    value: "0",
    data: encodeFunctionData({
      abi: callTargetAbi,
      functionName: "deposit",
      args: [beneficiary as `0x${string}`, zeroAddress, 0n],
    }),
  };
}

/**
 * Makes a quoted request's calls revert by fill time, as if the destination changed after the quote: a call that
 * reverts already is refused by the quote, so only this way does a fill meet a reverting call.
 */
export async function revertCallsBeforeFill(pool: pg.Pool, requestId: string, callTarget: string): Promise<void> {
  const reverting = {
    to: callTarget,
    value: "0",
    data: encodeFunctionData({ abi: callTargetAbi, functionName: "alwaysReverts" }),
  };
  await pool.query("UPDATE crossfill.requests SET calls = $2 WHERE id = $1", [requestId, JSON.stringify([reverting])]);
}
