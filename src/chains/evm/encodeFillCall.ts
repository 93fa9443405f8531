import { type Address, type Hex, encodeFunctionData, zeroAddress } from "viem";
import { receiverAbi, wrappedNativeAbi } from "../../../contracts/abis.js";
import type { FillOrder } from "../adapter.js";
import type { SolverCall } from "./solverTransaction.js";

type ReceiverCall = { to: Address; value: bigint; data: Hex };

/**
 * What the Receiver is asked to pay and run; calls run in its CallExecutor, on the fill amount alone. A wrap sends
 * the ether in and has the executor `deposit` it into WETH and transfer the new tokens to the recipient; an unwrap
 * has the Receiver move the solver's WETH to the executor, which `withdraw`s it and sends the ether that came back
 * on. Either way the WETH supply moves by the amount, as a real wrap does.
 */
function receiverFill(order: FillOrder): { currency: Address; calls: ReceiverCall[] } {
  const calls = order.calls.map((call) => ({ to: call.to as Address, value: call.value, data: call.data as Hex }));
  const { conversion } = order;
  if (!conversion) return { currency: order.currency as Address, calls };
  const weth = conversion.wrappedNative as Address;
  if (conversion.kind === "wrap") {
    return {
      currency: zeroAddress,
      calls: [
        { to: weth, value: order.amount, data: encodeFunctionData({ abi: wrappedNativeAbi, functionName: "deposit" }) },
        {
          to: weth,
          value: 0n,
          data: encodeFunctionData({
            abi: wrappedNativeAbi,
            functionName: "transfer",
            args: [order.recipient as Address, order.amount],
          }),
        },
      ],
    };
  }
  return {
    currency: weth,
    calls: [
      {
        to: weth,
        value: 0n,
        data: encodeFunctionData({ abi: wrappedNativeAbi, functionName: "withdraw", args: [order.amount] }),
      },
    ],
  };
}

/** The Receiver's fill of one order: the output to the recipient, or to the executor for the order's calls. */
export function encodeFillCall(receiver: string, order: FillOrder): SolverCall {
  const { currency, calls } = receiverFill(order);
  return {
    to: receiver as Address,
    data: encodeFunctionData({
      abi: receiverAbi,
      functionName: "fill",
      args: [order.requestId as Hex, currency, order.amount, order.recipient as Address, calls],
    }),
    value: currency === zeroAddress ? order.amount : 0n,
  };
}
