import { decodeFunctionData, encodeFunctionData, getAddress, zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import { receiverAbi, wrappedNativeAbi } from "../../../contracts/abis.js";
import { encodeFillCall } from "./encodeFillCall.js";

const receiver = "0x00000000000000000000000000000000000000e0";
const weth = getAddress("0x00000000000000000000000000000000000000e1");
const recipient = getAddress("0x00000000000000000000000000000000000000aa");
const order = {
  requestId: `0x${"11".repeat(32)}`,
  orderId: `0x${"22".repeat(32)}`,
  amount: 5_000n,
  recipient,
  calls: [],
  currencySymbol: "WETH",
};
const fillArgs = (data: `0x${string}`) => decodeFunctionData({ abi: receiverAbi, data }).args;

describe("encodeFillCall", () => {
  it("pays a token from inventory when nothing is converted", () => {
    const call = encodeFillCall(receiver, { ...order, currency: weth });
    expect(call).toMatchObject({ to: receiver, value: 0n });
    expect(fillArgs(call.data)).toEqual([order.requestId, weth, 5_000n, recipient, []]);
  });

  const converting = (kind: "wrap" | "unwrap", currency: string) => {
    const call = encodeFillCall(receiver, { ...order, currency, conversion: { kind, wrappedNative: weth } });
    const [requestId, fillCurrency, amount, to, calls] = fillArgs(call.data);
    expect([requestId, amount, to]).toEqual([order.requestId, 5_000n, recipient]);
    return { value: call.value, fillCurrency, calls };
  };
  const wethCall = (value: bigint, data: `0x${string}`) => ({ to: weth, value, data });

  it("wraps: sends the ether in, deposits it into WETH and transfers the new tokens to the recipient", () => {
    expect(converting("wrap", weth)).toEqual({
      value: 5_000n,
      fillCurrency: zeroAddress,
      calls: [
        wethCall(5_000n, encodeFunctionData({ abi: wrappedNativeAbi, functionName: "deposit" })),
        wethCall(
          0n,
          encodeFunctionData({ abi: wrappedNativeAbi, functionName: "transfer", args: [recipient, 5_000n] }),
        ),
      ],
    });
  });

  it("unwraps: pulls the solver's WETH and withdraws it; the executor forwards the ether", () => {
    expect(converting("unwrap", zeroAddress)).toEqual({
      value: 0n,
      fillCurrency: weth,
      calls: [wethCall(0n, encodeFunctionData({ abi: wrappedNativeAbi, functionName: "withdraw", args: [5_000n] }))],
    });
  });
});
