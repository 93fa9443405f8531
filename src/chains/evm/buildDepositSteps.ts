import { type Address, type Hex, encodeFunctionData, erc20Abi } from "viem";
import { depositoryAbi } from "../../../contracts/abis.js";
import type { EvmChainConfig } from "../chainConfig.js";
import type { DepositStepsInput, QuoteStep } from "../adapter.js";

/** An approve step only when the user's allowance is short, then the deposit committing to the order id. */
export function buildDepositSteps(originChain: EvmChainConfig, input: DepositStepsInput): QuoteStep[] {
  const { currency, user, amount, requestId } = input;
  const depository = originChain.depository as Address;
  const chainId = originChain.id;
  const steps: QuoteStep[] = [];
  const native = currency.metadata.isNative;
  if (!native && input.allowance < amount) {
    steps.push({
      id: "approve",
      action: "Confirm transaction in your wallet",
      description: `Sign an approval for ${currency.symbol}`,
      kind: "transaction",
      requestId,
      depositAddress: "",
      items: [
        {
          status: "incomplete",
          data: {
            from: user,
            to: currency.address,
            data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [depository, amount] }),
            value: "0",
            chainId,
          },
        },
      ],
    });
  }
  const data = native
    ? encodeFunctionData({
        abi: depositoryAbi,
        functionName: "depositNative",
        args: [user as Address, input.orderId as Hex],
      })
    : encodeFunctionData({
        abi: depositoryAbi,
        functionName: "depositErc20",
        args: [user as Address, currency.address as Address, amount, input.orderId as Hex],
      });
  steps.push({
    id: "deposit",
    action: "Confirm transaction in your wallet",
    description: `Depositing ${currency.symbol} on ${originChain.displayName ?? originChain.name} for the fill on ${input.destinationName}`,
    kind: "transaction",
    requestId,
    depositAddress: "",
    items: [
      {
        status: "incomplete",
        data: { from: user, to: depository, data, value: native ? amount.toString() : "0", chainId },
        check: { endpoint: `/intents/status/v3?requestId=${requestId}`, method: "GET" },
      },
    ],
  });
  return steps;
}
