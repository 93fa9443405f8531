import { type Address, type Hex, encodeFunctionData, zeroAddress } from "viem";
import { receiverAbi } from "../../../contracts/abis.js";
import type { FillOrder } from "../adapter.js";
import type { SolverCall } from "./solverTransaction.js";

/** The Receiver's fill of one order: the output to the recipient, then the order's calls, in one transaction. */
export function encodeFillCall(receiver: string, order: FillOrder): SolverCall {
  const currency = order.currency as Address;
  const calls = order.calls.map((call) => ({ to: call.to as Address, value: call.value, data: call.data as Hex }));
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
