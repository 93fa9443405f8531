import { type Abi, BaseError, ContractFunctionRevertedError, decodeErrorResult, type Hex } from "viem";
import { callTargetAbi, depositoryAbi, receiverAbi, testTokenAbi } from "./abis.js";

// Every custom error of our contracts: a revert bubbled up from a token (e.g. `Blocked`) is decoded
// even when the call went through the Receiver (and its CallExecutor) or the Depository.
const allErrors = [...depositoryAbi, ...receiverAbi, ...testTokenAbi, ...callTargetAbi].filter(
  (e) => e.type === "error",
) as Abi;

export type DecodedRevert = { errorName: string; args: readonly unknown[]; raw: Hex };

/**
 * For tests: awaits a viem call expected to revert (`simulateContract`, `readContract`…) and
 * returns the decoded revert. Throws if it does not revert (an empty revert gives errorName "").
 */
export async function revertOf(call: Promise<unknown>): Promise<DecodedRevert> {
  try {
    await call;
  } catch (err) {
    const reverted = err instanceof BaseError ? err.walk((e) => e instanceof ContractFunctionRevertedError) : null;
    const raw = reverted instanceof ContractFunctionRevertedError ? reverted.raw : undefined;
    if (!raw) throw err;
    if (raw === "0x") return { errorName: "", args: [], raw }; // reverted without a reason
    const decoded = decodeErrorResult({ abi: allErrors, data: raw });
    return { errorName: decoded.errorName, args: decoded.args ?? [], raw };
  }
  throw new Error("expected a revert, but the call succeeded");
}
