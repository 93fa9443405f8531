import { encodeErrorResult, encodeFunctionResult } from "viem";
import { describe, expect, it } from "vitest";
import { receiverAbi, testTokenAbi } from "../../../contracts/abis.js";
import { classifyFillRevert } from "./classifyFillRevert.js";

const context = { recipient: "0xabc", currencySymbol: "USDC" };
const blocked = encodeErrorResult({
  abi: testTokenAbi,
  errorName: "Blocked",
  args: ["0x0000000000000000000000000000000000000abc"],
});
const stringError = (message: string) =>
  encodeErrorResult({
    abi: [{ type: "error", name: "Error", inputs: [{ name: "message", type: "string" }] }],
    errorName: "Error",
    args: [message],
  });
const callFailed = (index: bigint, message: string) =>
  encodeErrorResult({ abi: receiverAbi, errorName: "CallFailed", args: [index, stringError(message)] });

describe("classifyFillRevert", () => {
  it("reads a token's refusal of the recipient, direct or inside a call", () => {
    expect(classifyFillRevert(blocked, context)).toMatchObject({
      failReason: "DESTINATION_TOKEN_TRANSFER_REJECTED",
      details: { errorCode: "DESTINATION_TX_FAILED", message: "the recipient 0xabc cannot receive USDC" },
    });
    expect(classifyFillRevert(callFailed(1n, "Blacklistable: account is blacklisted"), context)).toMatchObject({
      failReason: "DESTINATION_TOKEN_TRANSFER_REJECTED",
      details: { callIndex: 1 },
    });
  });

  it("reports a failing destination call with its index and reason", () => {
    const wrapped = callFailed(0n, "CallTarget: always reverts");
    expect(classifyFillRevert(wrapped, context)).toEqual({
      failReason: "EXECUTION_REVERTED",
      details: {
        errorCode: "DESTINATION_TX_FAILED",
        message: "destination call 0 reverts: CallTarget: always reverts",
        callIndex: 0,
        revertData: wrapped,
      },
    });
  });

  it("reports a call the executor refuses to run, aimed at the Receiver or itself, with its index", () => {
    const receiver = "0x00000000000000000000000000000000000000AA";
    const refused = encodeErrorResult({ abi: receiverAbi, errorName: "ForbiddenTarget", args: [2n, receiver] });
    expect(classifyFillRevert(refused, context)).toEqual({
      failReason: "EXECUTION_REVERTED",
      details: {
        errorCode: "DESTINATION_TX_FAILED",
        message: `destination call 2 reverts: it calls ${receiver}, a service contract calls may not reach`,
        callIndex: 2,
        revertData: refused,
      },
    });
  });

  it("falls back to EXECUTION_REVERTED for unknown or missing revert data", () => {
    expect(classifyFillRevert(undefined, context).failReason).toBe("EXECUTION_REVERTED");
    expect(classifyFillRevert("0x12345678", context).failReason).toBe("EXECUTION_REVERTED");
    expect(
      classifyFillRevert(
        encodeFunctionResult({
          abi: [{ type: "function", name: "f", inputs: [], outputs: [{ type: "uint256" }], stateMutability: "view" }],
          functionName: "f",
          result: 1n,
        }),
        context,
      ).failReason,
    ).toBe("EXECUTION_REVERTED");
  });
});
