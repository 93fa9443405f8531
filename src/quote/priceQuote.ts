import { divCeil } from "../domain/money.js";
import { type PricedCurrency, convertAmount } from "../pricing/convertAmount.js";

export type PriceQuoteInput = {
  tradeType: "EXACT_INPUT" | "EXACT_OUTPUT";
  amount: bigint;
  currencyIn: PricedCurrency;
  currencyOut: PricedCurrency;
  /** The solver's cost of the destination fill, in the destination chain's native currency. */
  fillGasCost: bigint;
  destinationNative: PricedCurrency;
  serviceFeeBps: bigint;
  slippageBps: bigint;
  /** Same asset on both sides: the rate cannot move, so the minimum is the expected amount. */
  isFixedRate: boolean;
};

export type PriceQuote = {
  amountIn: bigint;
  amountOut: bigint;
  minimumAmountOut: bigint;
  /** Both fees are charged in the input currency and taken out of `amountIn`. */
  relayerGasFee: bigint;
  relayerServiceFee: bigint;
};

/**
 * The quote's amounts. Returns undefined when fees eat the whole input: the caller answers AMOUNT_DOES_NOT_COVER_FEES.
 */
export function priceQuote(input: PriceQuoteInput): PriceQuote | undefined {
  const relayerGasFee = convertAmount(input.fillGasCost, input.destinationNative, input.currencyIn, true);
  if (input.tradeType === "EXACT_INPUT") {
    const amountIn = input.amount;
    const relayerServiceFee = divCeil(amountIn * input.serviceFeeBps, 10_000n);
    const netIn = amountIn - relayerGasFee - relayerServiceFee;
    if (netIn <= 0n) return undefined;
    const amountOut = convertAmount(netIn, input.currencyIn, input.currencyOut);
    if (amountOut <= 0n) return undefined;
    const slippage = input.isFixedRate ? 0n : (amountOut * input.slippageBps) / 10_000n;
    return { amountIn, amountOut, minimumAmountOut: amountOut - slippage, relayerGasFee, relayerServiceFee };
  }
  const amountOut = input.amount;
  const netIn = convertAmount(amountOut, input.currencyOut, input.currencyIn, true);
  const amountIn = divCeil((netIn + relayerGasFee) * 10_000n, 10_000n - input.serviceFeeBps);
  return {
    amountIn,
    amountOut,
    minimumAmountOut: amountOut,
    relayerGasFee,
    relayerServiceFee: amountIn - netIn - relayerGasFee,
  };
}
