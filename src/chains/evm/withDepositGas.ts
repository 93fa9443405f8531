import type { Address, Hex } from "viem";
import type { QuoteStep } from "../adapter.js";
import type { EvmChainClient } from "./evmChainClient.js";
import { findRevert } from "./findRevert.js";

type TransactionData = { from: string; to: string; data: string; value: string };

/**
 * The deposit steps with the spec's optional `gas` (the transaction simulated from the user's account) and
 * `maxFeePerGas`/`maxPriorityFeePerGas` (the chain's fee estimate now) on each transaction item. An item after an
 * approval cannot be simulated before the approval is mined, and one that reverts (the user lacks the balance)
 * has no gas to give: those go without `gas`, and the wallet estimates it.
 */
export async function withDepositGas(client: EvmChainClient, steps: QuoteStep[]): Promise<QuoteStep[]> {
  const approves = steps.some((step) => step.id === "approve");
  const simulate = async (step: QuoteStep, data: TransactionData) => {
    if (approves && step.id !== "approve") return undefined;
    try {
      return await client.publicClient.estimateGas({
        account: data.from as Address,
        to: data.to as Address,
        data: data.data as Hex,
        value: BigInt(data.value),
      });
    } catch (error) {
      if (findRevert(error)) return undefined;
      throw error;
    }
  };
  const [fees, gas] = await Promise.all([
    client.publicClient.estimateFeesPerGas(),
    Promise.all(
      steps.map((step) => Promise.all(step.items.map((item) => simulate(step, item.data as TransactionData)))),
    ),
  ]);
  return steps.map((step, s) => ({
    ...step,
    items: step.items.map((item, i) => ({
      ...item,
      data: {
        ...item.data,
        ...(gas[s][i] === undefined ? {} : { gas: gas[s][i]!.toString() }),
        maxFeePerGas: fees.maxFeePerGas.toString(),
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
      },
    })),
  }));
}
