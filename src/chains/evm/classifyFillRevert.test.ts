import { type Hex, encodeErrorResult, encodeFunctionData, encodeFunctionResult, parseAbi, zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import { receiverAbi, testTokenAbi } from "../../../contracts/abis.js";
import { type FillRevert, classifyFillRevert } from "./classifyFillRevert.js";

const context = { recipient: "0xabc", currencySymbol: "USDC" };
const account = "0x0000000000000000000000000000000000000abc" as const;
const requestId = `0x${"11".repeat(32)}` as Hex;
const classify = (data: Hex | undefined, extra: Omit<FillRevert, "data"> = {}) =>
  classifyFillRevert({ data, ...extra }, context);
const stringError = (message: string) =>
  encodeErrorResult({
    abi: [{ type: "error", name: "Error", inputs: [{ name: "message", type: "string" }] }],
    errorName: "Error",
    args: [message],
  });
const callFailed = (index: bigint, reason: Hex) =>
  encodeErrorResult({ abi: receiverAbi, errorName: "CallFailed", args: [index, reason] });
const standard = (signature: string, args: readonly unknown[] = []) => {
  const abi = parseAbi([signature]);
  return encodeErrorResult({ abi, errorName: (abi[0] as { name: string }).name, args } as never);
};
const token = (errorName: "Blocked" | "InsufficientBalance" | "InsufficientAllowance", args: readonly unknown[]) =>
  encodeErrorResult({ abi: testTokenAbi, errorName, args } as never);
const fillCall = (value: bigint, callValues: bigint[]) => ({
  value,
  data: encodeFunctionData({
    abi: receiverAbi,
    functionName: "fill",
    args: [
      requestId,
      zeroAddress,
      value,
      account,
      callValues.map((v) => ({ to: account, value: v, data: "0x" as const })),
    ],
  }),
});

describe("classifyFillRevert", () => {
  it("reads a token's refusal of the recipient, direct or inside a call", () => {
    expect(classify(token("Blocked", [account]))).toMatchObject({
      failReason: "DESTINATION_TOKEN_TRANSFER_REJECTED",
      details: { errorCode: "DESTINATION_TX_FAILED", message: "the recipient 0xabc cannot receive USDC" },
    });
    expect(classify(callFailed(1n, stringError("Blacklistable: account is blacklisted")))).toMatchObject({
      failReason: "DESTINATION_TOKEN_TRANSFER_REJECTED",
      details: { callIndex: 1 },
    });
  });

  it("reports a failing destination call with its index and reason", () => {
    const wrapped = callFailed(0n, stringError("CallTarget: always reverts"));
    expect(classify(wrapped)).toEqual({
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
    expect(classify(refused)).toEqual({
      failReason: "EXECUTION_REVERTED",
      details: {
        errorCode: "DESTINATION_TX_FAILED",
        message: `destination call 2 reverts: it calls ${receiver}, a service contract calls may not reach`,
        callIndex: 2,
        revertData: refused,
      },
    });
  });

  it("ORDER_ALREADY_FILLED: the Receiver's AlreadyFilled", () => {
    const data = encodeErrorResult({ abi: receiverAbi, errorName: "AlreadyFilled", args: [requestId] });
    expect(classify(data)).toMatchObject({ failReason: "ORDER_ALREADY_FILLED", details: { revertData: data } });
  });

  it("TRANSFER_AMOUNT_EXCEEDS_BALANCE: the token's, OpenZeppelin 5's error or OpenZeppelin 4's string", () => {
    for (const data of [
      token("InsufficientBalance", [account, 1n, 2n]),
      standard("error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)", [account, 1n, 2n]),
      stringError("ERC20: transfer amount exceeds balance"),
    ]) {
      expect(classify(data).failReason).toBe("TRANSFER_AMOUNT_EXCEEDS_BALANCE");
      expect(classify(callFailed(0n, data))).toMatchObject({
        failReason: "TRANSFER_AMOUNT_EXCEEDS_BALANCE",
        details: { callIndex: 0 },
      });
    }
  });

  it("TRANSFER_AMOUNT_EXCEEDS_ALLOWANCE: the token's, OpenZeppelin 5's error or OpenZeppelin 4's strings", () => {
    for (const data of [
      token("InsufficientAllowance", [account, 0n, 2n]),
      standard("error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)", [
        account,
        0n,
        2n,
      ]),
      stringError("ERC20: insufficient allowance"),
      stringError("ERC20: transfer amount exceeds allowance"),
    ])
      expect(classify(callFailed(3n, data)).failReason).toBe("TRANSFER_AMOUNT_EXCEEDS_ALLOWANCE");
  });

  it("TRANSFER_FROM_FAILED: solmate's and Uniswap's strings, Solady's error", () => {
    for (const data of [
      stringError("TRANSFER_FROM_FAILED"),
      stringError("STF"),
      standard("error TransferFromFailed()"),
    ])
      expect(classify(callFailed(0n, data)).failReason).toBe("TRANSFER_FROM_FAILED");
  });

  it("TRANSFER_FAILED: our TokenTransfers' errors, OpenZeppelin's SafeERC20, solmate, Uniswap, Solady", () => {
    for (const data of [
      encodeErrorResult({ abi: receiverAbi, errorName: "TransferReturnedFalse", args: [account] }),
      encodeErrorResult({ abi: receiverAbi, errorName: "NotAContract", args: [account] }),
      encodeErrorResult({ abi: receiverAbi, errorName: "NativeTransferFailed", args: [account, 5n] }),
      standard("error SafeERC20FailedOperation(address token)", [account]),
      standard("error TransferFailed()"),
      standard("error ETHTransferFailed()"),
      stringError("SafeERC20: ERC20 operation did not succeed"),
      stringError("TRANSFER_FAILED"),
      stringError("ETH_TRANSFER_FAILED"),
      stringError("ST"),
    ])
      expect(classify(data).failReason).toBe("TRANSFER_FAILED");
  });

  it("INSUFFICIENT_NATIVE_TOKENS_SUPPLIED: too little ether for the payment or for the calls", () => {
    expect(
      classify(encodeErrorResult({ abi: receiverAbi, errorName: "WrongNativeAmount", args: [1n, 2n] })).failReason,
    ).toBe("INSUFFICIENT_NATIVE_TOKENS_SUPPLIED");
    for (const data of [
      standard("error InsufficientBalance(uint256 balance, uint256 needed)", [1n, 2n]),
      standard("error AddressInsufficientBalance(address account)", [account]),
      stringError("Address: insufficient balance"),
    ])
      expect(classify(callFailed(0n, data)).failReason).toBe("INSUFFICIENT_NATIVE_TOKENS_SUPPLIED");
    // The executor's CALL with more value than it holds fails with no data: calls 0 and 1 send 7 of the 5 brought.
    expect(classify(callFailed(1n, "0x"), { call: fillCall(5n, [3n, 4n]) })).toMatchObject({
      failReason: "INSUFFICIENT_NATIVE_TOKENS_SUPPLIED",
      details: { callIndex: 1, message: "destination call 1 reverts: calls 0 to 1 send 7 wei, the fill brought 5" },
    });
  });

  it("MISSING_REVERT_DATA: a revert without data, of the fill or of a call within what it brought", () => {
    expect(classify("0x")).toMatchObject({
      failReason: "MISSING_REVERT_DATA",
      details: { message: "the fill reverts without revert data" },
    });
    expect(classify(callFailed(0n, "0x"), { call: fillCall(5n, [5n]) })).toMatchObject({
      failReason: "MISSING_REVERT_DATA",
      details: { callIndex: 0, message: "destination call 0 reverts without revert data" },
    });
  });

  it("QUOTED_GAS_LIMIT_EXCEEDED: a mined revert without data that used its gas limit but what frames keep", () => {
    // Out of gas in a destination call: the executor and the Receiver each kept 1/64 to revert with.
    expect(classify(callFailed(0n, "0x"), { gas: { used: 96_900n, limit: 100_000n } })).toMatchObject({
      failReason: "QUOTED_GAS_LIMIT_EXCEEDED",
      details: {
        callIndex: 0,
        message: "destination call 0 reverts: out of gas, 96900 used of the fill's limit of 100000",
      },
    });
    // Out of gas in the Receiver itself: its replay fails too, so nothing is known of the data.
    expect(classify(undefined, { gas: { used: 100_000n, limit: 100_000n } }).failReason).toBe(
      "QUOTED_GAS_LIMIT_EXCEEDED",
    );
    expect(classify(callFailed(0n, "0x"), { gas: { used: 60_000n, limit: 100_000n } }).failReason).toBe(
      "MISSING_REVERT_DATA",
    );
    // A revert with a reason did not run out of gas, however much it used.
    expect(classify(callFailed(0n, stringError("STF")), { gas: { used: 99_000n, limit: 100_000n } }).failReason).toBe(
      "TRANSFER_FROM_FAILED",
    );
  });

  it("EXECUTION_REVERTED for anything else: unknown errors, or a mined revert whose replay no longer reverts", () => {
    expect(classify(undefined)).toMatchObject({
      failReason: "EXECUTION_REVERTED",
      details: { message: "the fill reverts" },
    });
    expect(classify("0x12345678").failReason).toBe("EXECUTION_REVERTED");
    expect(classify(callFailed(0n, stringError("Pausable: paused"))).failReason).toBe("EXECUTION_REVERTED");
    expect(
      classify(
        encodeFunctionResult({
          abi: [{ type: "function", name: "f", inputs: [], outputs: [{ type: "uint256" }], stateMutability: "view" }],
          functionName: "f",
          result: 1n,
        }),
      ).failReason,
    ).toBe("EXECUTION_REVERTED");
  });
});
