import { type Hex, decodeErrorResult } from "viem";
import { receiverAbi, testTokenAbi } from "../../../contracts/abis.js";
import type { FillFailure } from "../adapter.js";

const KNOWN_ERRORS = [...receiverAbi, ...testTokenAbi].filter((item) => item.type === "error");
// Tokens that block addresses say so in their own words; these are the common ones.
const BLOCKED = /block|blacklist|denylist|sanction|frozen/i;

function decode(data: Hex | undefined) {
  if (!data || data === "0x") return undefined;
  try {
    return decodeErrorResult({
      abi: [...KNOWN_ERRORS, { type: "error", name: "Error", inputs: [{ name: "message", type: "string" }] }],
      data,
    });
  } catch {
    return undefined;
  }
}

/**
 * Why a fill would revert, from the revert data of its simulation: a destination call that fails (or that the
 * executor refuses to run) is EXECUTION_REVERTED; a token refusing the recipient is a DESTINATION_TX_FAILED rejection of the transfer.
 */
export function classifyFillRevert(
  data: Hex | undefined,
  context: { recipient: string; currencySymbol: string },
): FillFailure {
  const outer = decode(data);
  // Both come from the CallExecutor, through the Receiver: a call that failed, or one aimed at our own contracts.
  const callIndex =
    outer?.errorName === "CallFailed" || outer?.errorName === "ForbiddenTarget" ? Number(outer.args[0]) : undefined;
  const inner = outer?.errorName === "CallFailed" ? decode(outer.args[1] as Hex) : outer;
  const reason =
    outer?.errorName === "ForbiddenTarget"
      ? `it calls ${String(outer.args[1])}, a service contract calls may not reach`
      : inner?.errorName === "Error"
        ? String(inner.args[0])
        : inner?.errorName;
  const blocked =
    inner?.errorName === "Blocked" || (inner?.errorName === "Error" && BLOCKED.test(String(inner.args[0])));
  if (blocked) {
    return {
      failReason: "DESTINATION_TOKEN_TRANSFER_REJECTED",
      details: {
        errorCode: "DESTINATION_TX_FAILED",
        message: `the recipient ${context.recipient} cannot receive ${context.currencySymbol}`,
        ...(callIndex === undefined ? {} : { callIndex }),
        revertData: data,
      },
    };
  }
  return {
    failReason: "EXECUTION_REVERTED",
    details: {
      errorCode: "DESTINATION_TX_FAILED",
      message:
        callIndex === undefined
          ? `the fill reverts${reason ? `: ${reason}` : ""}`
          : `destination call ${callIndex} reverts${reason ? `: ${reason}` : ""}`,
      ...(callIndex === undefined ? {} : { callIndex }),
      revertData: data,
    },
  };
}
