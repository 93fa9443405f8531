import { type Address, type Hex, encodeFunctionData, erc20Abi } from "viem";
import { depositoryAbi } from "../../contracts/abis.js";
import type { QuoteRequest } from "./validateQuoteRequest.js";

export type TransactionStepItem = {
  status: "incomplete";
  data: { from: Address; to: Address; data: Hex; value: string; chainId: number };
  check?: { endpoint: string; method: "GET" };
};

export type Step = {
  id: "approve" | "deposit";
  action: string;
  description: string;
  kind: "transaction";
  requestId: Hex;
  depositAddress: string;
  items: TransactionStepItem[];
};

/** An approve step only when the user's allowance is short, then the deposit committing to the order id. */
export function buildSteps(
  request: QuoteRequest,
  options: { requestId: Hex; orderId: Hex; amountIn: bigint; allowance: bigint },
): Step[] {
  const { currencyIn, originChain, user } = request;
  const depository = originChain.depository as Address;
  const chainId = originChain.id;
  const steps: Step[] = [];
  const native = currencyIn.metadata.isNative;
  if (!native && options.allowance < options.amountIn) {
    steps.push({
      id: "approve",
      action: "Confirm transaction in your wallet",
      description: `Sign an approval for ${currencyIn.symbol}`,
      kind: "transaction",
      requestId: options.requestId,
      depositAddress: "",
      items: [
        {
          status: "incomplete",
          data: {
            from: user,
            to: currencyIn.address,
            data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [depository, options.amountIn] }),
            value: "0",
            chainId,
          },
        },
      ],
    });
  }
  const data = native
    ? encodeFunctionData({ abi: depositoryAbi, functionName: "depositNative", args: [user, options.orderId] })
    : encodeFunctionData({
        abi: depositoryAbi,
        functionName: "depositErc20",
        args: [user, currencyIn.address, options.amountIn, options.orderId],
      });
  steps.push({
    id: "deposit",
    action: "Confirm transaction in your wallet",
    description: `Depositing ${currencyIn.symbol} on ${originChain.displayName ?? originChain.name} for the fill on ${request.destinationChain.displayName ?? request.destinationChain.name}`,
    kind: "transaction",
    requestId: options.requestId,
    depositAddress: "",
    items: [
      {
        status: "incomplete",
        data: { from: user, to: depository, data, value: native ? options.amountIn.toString() : "0", chainId },
        check: { endpoint: `/intents/status/v3?requestId=${options.requestId}`, method: "GET" },
      },
    ],
  });
  return steps;
}
