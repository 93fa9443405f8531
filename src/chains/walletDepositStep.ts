import type { DepositStepsInput, QuoteStep } from "./adapter.js";
import type { ChainConfig } from "./chainConfig.js";

/**
 * The deposit step a wallet signs on a chain without a Depository call (Bitcoin's PSBT, Solana's instructions):
 * `data` in the family's shape, checked through the request's status.
 */
export function walletDepositStep(
  chain: Pick<ChainConfig, "name" | "displayName">,
  input: Pick<DepositStepsInput, "currency" | "destinationName" | "requestId">,
  data: Record<string, unknown>,
): QuoteStep {
  return {
    id: "deposit",
    action: "Confirm transaction in your wallet",
    description: `Depositing ${input.currency.symbol} on ${chain.displayName ?? chain.name} for the fill on ${input.destinationName}`,
    kind: "transaction",
    requestId: input.requestId,
    depositAddress: "",
    items: [
      {
        status: "incomplete",
        data,
        check: { endpoint: `/intents/status/v3?requestId=${input.requestId}`, method: "GET" },
      },
    ],
  };
}
