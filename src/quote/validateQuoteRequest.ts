import { z } from "zod";
import type { ChainAdapter } from "../chains/adapter.js";
import type { ChainAdapters } from "../chains/chainAdapters.js";
import type { ChainConfig } from "../chains/chainConfig.js";
import type { ChainRegistry, Currency } from "../chains/chainRegistry.js";
import { InvalidInputError } from "../domain/errors.js";
import { quoteRequestSchema } from "./quoteRequestSchema.js";

export type DestinationCall = { to: string; value: bigint; data: string };

/** Addresses in their chain's canonical form: user and refundTo on the origin chain, the rest on the destination. */
export type QuoteRequest = {
  user: string;
  recipient: string;
  refundTo: string;
  originChain: ChainConfig;
  destinationChain: ChainConfig;
  currencyIn: Currency;
  currencyOut: Currency;
  amount: bigint;
  tradeType: "EXACT_INPUT" | "EXACT_OUTPUT";
  calls: DestinationCall[];
  slippageBps: bigint | undefined;
  latePaymentSlippageBps: bigint | undefined;
  referrer: string | undefined;
  includeProtocolData: boolean;
};

function slippage(value: unknown, field: string): bigint | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "string" && /^\d{1,5}$/.test(value) && Number(value) <= 10_000) return BigInt(value);
  throw new InvalidInputError(
    "INVALID_SLIPPAGE_TOLERANCE",
    `${field} must be an integer string of basis points from 0 to 10000`,
  );
}

function address(
  adapter: ChainAdapter,
  value: string,
  field: string,
  errorCode: "INVALID_ADDRESS" | "INVALID_INPUT" = "INVALID_ADDRESS",
): string {
  const parsed = adapter.address.parse(value);
  if (parsed === undefined)
    throw new InvalidInputError(errorCode, `${field} is not a valid address on chain ${adapter.chain.id}: ${value}`);
  return parsed;
}

/** Turns an untrusted body into a quote request the engine can price, or throws a 400 with the spec's code. */
export function validateQuoteRequest(body: unknown, registry: ChainRegistry, adapters: ChainAdapters): QuoteRequest {
  const parsed = quoteRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue.path.join(".") || "body";
    throw new InvalidInputError("INVALID_INPUT", `${path}: ${issue.message}`, { issues: z.treeifyError(parsed.error) });
  }
  const input = parsed.data;
  const slippageBps = slippage(input.slippageTolerance, "slippageTolerance");
  const latePaymentSlippageBps = slippage(input.latePaymentSlippageTolerance, "latePaymentSlippageTolerance");

  const originChain = registry.chain(input.originChainId);
  if (!originChain)
    throw new InvalidInputError("UNSUPPORTED_CHAIN", `origin chain ${input.originChainId} is not supported`);
  const destinationChain = registry.chain(input.destinationChainId);
  if (!destinationChain)
    throw new InvalidInputError("UNSUPPORTED_CHAIN", `destination chain ${input.destinationChainId} is not supported`);
  if (originChain.id === destinationChain.id) {
    throw new InvalidInputError(
      "UNSUPPORTED_ROUTE",
      "same-chain swaps are not offered; origin and destination chains must differ",
    );
  }
  // Until the PSBT deposit and the Bitcoin solver land, a Bitcoin chain is listed and indexed but not quoted.
  if (originChain.vmType === "bvm" || destinationChain.vmType === "bvm")
    throw new InvalidInputError("UNSUPPORTED_ROUTE", "Bitcoin quotes are not offered yet");
  const currencyIn = registry.currency(originChain.id, input.originCurrency);
  if (!currencyIn)
    throw new InvalidInputError(
      "UNSUPPORTED_CURRENCY",
      `currency ${input.originCurrency} is not supported on chain ${originChain.id}`,
    );
  const currencyOut = registry.currency(destinationChain.id, input.destinationCurrency);
  if (!currencyOut) {
    throw new InvalidInputError(
      "UNSUPPORTED_CURRENCY",
      `currency ${input.destinationCurrency} is not supported on chain ${destinationChain.id}`,
    );
  }

  const origin = adapters.adapter(originChain.id);
  const destination = adapters.adapter(destinationChain.id);
  const user = address(origin, input.user, "user");
  // Without a recipient the user is paid, so the user must also be an address of the destination chain.
  const recipient = address(destination, input.recipient ?? input.user, "recipient");
  const refusal = destination.recipientRefusal(recipient);
  if (refusal) throw new InvalidInputError(refusal.errorCode, refusal.message);
  const refundTo = input.refundTo === undefined ? user : address(origin, input.refundTo, "refundTo");

  if (input.useDepositAddress)
    throw new InvalidInputError("UNSUPPORTED_ROUTE", "deposit addresses are not offered for EVM origins");
  if (input.appFees?.length) {
    throw new InvalidInputError(
      "INVALID_INPUT",
      "appFees: app fees are not offered yet; quote without them (an ignored app fee would never be paid)",
    );
  }
  if (input.subsidizationBps !== undefined) {
    throw new InvalidInputError(
      "INVALID_INPUT",
      "subsidizationBps applies only to swap execution flows, not to bridges or deposit addresses",
    );
  }

  const amount = BigInt(input.amount);
  if (amount === 0n) throw new InvalidInputError("INVALID_INPUT", "amount must be greater than zero");

  const calls = (input.txs ?? []).map((tx, index) => ({
    to: address(destination, tx.to, `txs[${index}].to`, "INVALID_INPUT"),
    value: BigInt(tx.value),
    data: tx.data,
  }));
  const callValue = calls.reduce((sum, call) => sum + call.value, 0n);
  if (callValue > 0n && !currencyOut.metadata.isNative) {
    throw new InvalidInputError(
      "INVALID_INPUT",
      "txs[].value must be 0 when the destination currency is an ERC-20 token",
    );
  }
  if (
    calls.length > 0 &&
    input.tradeType === "EXACT_OUTPUT" &&
    currencyOut.metadata.isNative &&
    amount !== callValue &&
    callValue > 0n
  ) {
    throw new InvalidInputError(
      "INVALID_INPUT",
      `amount must equal the sum of txs[].value (${callValue}) for an EXACT_OUTPUT call`,
    );
  }

  return {
    user,
    recipient,
    refundTo,
    originChain,
    destinationChain,
    currencyIn,
    currencyOut,
    amount,
    tradeType: input.tradeType,
    calls,
    slippageBps,
    latePaymentSlippageBps,
    referrer: input.referrer,
    includeProtocolData: input.includeProtocolData ?? false,
  };
}
