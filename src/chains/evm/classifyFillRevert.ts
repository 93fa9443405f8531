import { type Abi, type Hex, decodeErrorResult, decodeFunctionData, parseAbi } from "viem";
import { receiverAbi, testTokenAbi } from "../../../contracts/abis.js";
import type { FailReason } from "../../domain/failReasons.js";
import type { FillFailure } from "../adapter.js";

/**
 * The errors standard tokens and transfer libraries revert with, beside our own contracts' (OpenZeppelin 5's
 * ERC-6093 and Errors, Solady's SafeTransferLib): names alone say which reason each is.
 */
const STANDARD_ERRORS = parseAbi([
  "error Error(string message)",
  "error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)",
  "error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)",
  "error SafeERC20FailedOperation(address token)",
  "error AddressInsufficientBalance(address account)",
  "error InsufficientBalance(uint256 balance, uint256 needed)",
  "error TransferFailed()",
  "error TransferFromFailed()",
  "error ETHTransferFailed()",
]);
const KNOWN_ERRORS = [...receiverAbi, ...testTokenAbi, ...STANDARD_ERRORS].filter(
  (item) => item.type === "error",
) as Abi;

/** Custom errors by name; the Receiver's and the TestToken's, then the standard ones above. */
const ERROR_REASONS: Record<string, FailReason> = {
  AlreadyFilled: "ORDER_ALREADY_FILLED",
  InsufficientBalance: "TRANSFER_AMOUNT_EXCEEDS_BALANCE",
  ERC20InsufficientBalance: "TRANSFER_AMOUNT_EXCEEDS_BALANCE",
  InsufficientAllowance: "TRANSFER_AMOUNT_EXCEEDS_ALLOWANCE",
  ERC20InsufficientAllowance: "TRANSFER_AMOUNT_EXCEEDS_ALLOWANCE",
  TransferFromFailed: "TRANSFER_FROM_FAILED",
  TransferFailed: "TRANSFER_FAILED",
  TransferReturnedFalse: "TRANSFER_FAILED",
  NotAContract: "TRANSFER_FAILED",
  SafeERC20FailedOperation: "TRANSFER_FAILED",
  NativeTransferFailed: "TRANSFER_FAILED",
  ETHTransferFailed: "TRANSFER_FAILED",
  AddressInsufficientBalance: "INSUFFICIENT_NATIVE_TOKENS_SUPPLIED",
};

/**
 * Revert strings of standard tokens and libraries (OpenZeppelin 4, solmate, Uniswap's TransferHelper), first match
 * wins: solmate's "TRANSFER_FROM_FAILED" must be read before its "TRANSFER_FAILED".
 */
const STRING_REASONS: [RegExp, FailReason][] = [
  [/transfer amount exceeds balance|burn amount exceeds balance/i, "TRANSFER_AMOUNT_EXCEEDS_BALANCE"],
  [/transfer amount exceeds allowance|insufficient allowance/i, "TRANSFER_AMOUNT_EXCEEDS_ALLOWANCE"],
  [/^(TRANSFER_FROM_FAILED|STF)$/, "TRANSFER_FROM_FAILED"],
  [/^(TRANSFER_FAILED|ETH_TRANSFER_FAILED|ST|STE)$|^SafeERC20:/, "TRANSFER_FAILED"],
  [/^Address: insufficient balance/, "INSUFFICIENT_NATIVE_TOKENS_SUPPLIED"],
];
// Tokens that block addresses say so in their own words; these are the common ones.
const BLOCKED = /block|blacklist|denylist|sanction|frozen/i;

type Decoded = { errorName: string; args: readonly unknown[] };

function decode(data: Hex | undefined): Decoded | undefined {
  if (!data || data === "0x") return undefined;
  try {
    const decoded = decodeErrorResult({ abi: KNOWN_ERRORS, data });
    return { errorName: decoded.errorName, args: decoded.args ?? [] };
  } catch {
    return undefined;
  }
}

/** The Receiver's calls and the native value the fill carried, read back from the call that reverted. */
function fillCalls(call: FillRevert["call"]): { value: bigint }[] | undefined {
  if (!call) return undefined;
  try {
    const { functionName, args } = decodeFunctionData({ abi: receiverAbi, data: call.data });
    return functionName === "fill" ? (args[4] as readonly { value: bigint }[]).slice() : undefined;
  } catch {
    return undefined;
  }
}

function reasonOf(error: Decoded): FailReason | undefined {
  if (error.errorName === "Error") {
    const message = String(error.args[0]);
    return STRING_REASONS.find(([pattern]) => pattern.test(message))?.[1];
  }
  // OpenZeppelin 5's Errors.InsufficientBalance(balance, needed) is the caller's ether falling short; the
  // TestToken's InsufficientBalance(account, balance, needed) is a token balance.
  if (error.errorName === "InsufficientBalance" && error.args.length === 2)
    return "INSUFFICIENT_NATIVE_TOKENS_SUPPLIED";
  return ERROR_REASONS[error.errorName];
}

export type FillRevert = {
  /** The revert data; "0x" when the node returned none, undefined when nothing was learnt of it (a mined revert
   * that no longer reverts when replayed). */
  data: Hex | undefined;
  /** The Receiver call that reverted: its calldata and the ether it carried. */
  call?: { data: Hex; value: bigint };
  /** What a mined revert used of its gas limit (none for a simulation, which has no limit of ours). */
  gas?: { used: bigint; limit: bigint };
};

/**
 * Why a fill reverted, from its revert data (the Receiver's, its CallExecutor's around a destination call's, a
 * token's, bubbled unchanged) and, for a mined one, its gas: the spec's failReason and the details the status
 * shows. docs/API.md ("Fail reasons") lists every reason and when.
 */
export function classifyFillRevert(
  revert: FillRevert,
  context: { recipient: string; currencySymbol: string },
): FillFailure {
  const { data } = revert;
  const failed = (failReason: FailReason, message: string, callIndex?: number): FillFailure => ({
    failReason,
    details: {
      errorCode: "DESTINATION_TX_FAILED",
      message,
      ...(callIndex === undefined ? {} : { callIndex }),
      revertData: data,
    },
  });
  const outer = decode(data);
  if (outer?.errorName === "AlreadyFilled")
    return failed("ORDER_ALREADY_FILLED", "the Receiver has this request filled");
  if (outer?.errorName === "WrongNativeAmount" && (outer.args[0] as bigint) < (outer.args[1] as bigint))
    return failed(
      "INSUFFICIENT_NATIVE_TOKENS_SUPPLIED",
      `the fill sent ${String(outer.args[0])} wei for a payment of ${String(outer.args[1])}`,
    );
  if (outer?.errorName === "ForbiddenTarget") {
    const callIndex = Number(outer.args[0]);
    return failed(
      "EXECUTION_REVERTED",
      `destination call ${callIndex} reverts: it calls ${String(outer.args[1])}, a service contract calls may not reach`,
      callIndex,
    );
  }
  const callIndex = outer?.errorName === "CallFailed" ? Number(outer.args[0]) : undefined;
  const innerData = callIndex === undefined ? data : (outer!.args[1] as Hex);
  const inner = callIndex === undefined ? outer : decode(innerData);
  const where = callIndex === undefined ? "the fill reverts" : `destination call ${callIndex} reverts`;
  const blocked =
    inner?.errorName === "Blocked" || (inner?.errorName === "Error" && BLOCKED.test(String(inner.args[0])));
  if (blocked)
    return failed(
      "DESTINATION_TOKEN_TRANSFER_REJECTED",
      `the recipient ${context.recipient} cannot receive ${context.currencySymbol}`,
      callIndex,
    );
  // Running out of gas leaves no data in the frame it stops, and each frame above keeps 1/64 of its gas to revert
  // with: a mined revert without data that used all but a few 64ths of its limit ran out of it.
  const { gas } = revert;
  if (gas && (innerData === "0x" || innerData === undefined) && gas.used * 64n >= gas.limit * 60n)
    return failed(
      "QUOTED_GAS_LIMIT_EXCEEDED",
      `${where}: out of gas, ${gas.used} used of the fill's limit of ${gas.limit}`,
      callIndex,
    );
  if (innerData === "0x") {
    // A call sending more ether than the fill brought fails in the CALL itself, before any code runs: no data.
    const calls = fillCalls(revert.call);
    const sent = calls?.slice(0, (callIndex ?? -1) + 1).reduce((sum, call) => sum + call.value, 0n) ?? 0n;
    if (callIndex !== undefined && revert.call && sent > revert.call.value)
      return failed(
        "INSUFFICIENT_NATIVE_TOKENS_SUPPLIED",
        `${where}: calls 0 to ${callIndex} send ${sent} wei, the fill brought ${revert.call.value}`,
        callIndex,
      );
    return failed("MISSING_REVERT_DATA", `${where} without revert data`, callIndex);
  }
  const name = inner?.errorName === "Error" ? String(inner.args[0]) : inner?.errorName;
  const reason = inner && reasonOf(inner);
  return failed(reason ?? "EXECUTION_REVERTED", name ? `${where}: ${name}` : where, callIndex);
}
