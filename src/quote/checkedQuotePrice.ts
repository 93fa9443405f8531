import { InvalidInputError } from "../domain/errors.js";
import { formatAmount } from "../domain/money.js";
import { usdValueE18 } from "../pricing/usdValue.js";
import { formatUsd } from "./amountObject.js";
import { type PriceQuote, priceQuote } from "./priceQuote.js";
import type { QuoteEngineDeps } from "./quoteEngineDeps.js";
import type { QuoteMarket } from "./readQuoteMarket.js";
import type { QuoteRequest } from "./validateQuoteRequest.js";

const MINIMUM_SAME_CHAIN_SWAP_USD_E18 = 5n * 10n ** 16n;

/**
 * The quote's price, and every bound it must meet: a deposit the origin carries, a same-chain swap worth the spec's
 * minimum, an amount that covers the fees, a sponsor that can pay its share, a payout the destination carries that
 * covers the calls' value, and a solver that holds the output. Each one missed is the spec's error, in that order.
 * `oracleBps`, the caller's fixed-bps oracle pricing, replaces the normal fees when present.
 */
export async function checkedQuotePrice(
  deps: QuoteEngineDeps,
  request: QuoteRequest,
  market: QuoteMarket,
  sponsor: string | undefined,
  oracleBps?: bigint,
): Promise<PriceQuote> {
  const { currencyIn, currencyOut, originChain, destinationChain } = request;
  const { origin, destination, kind, fillCurrency, fillGasCost, fillRentCost, priceIn, priceOut } = market;
  const minimumDeposit = origin.minimumDeposit(currencyIn.address);
  const tooSmall = (amountIn: bigint) =>
    new InvalidInputError(
      "AMOUNT_TOO_LOW",
      `a deposit of ${amountIn} is below the smallest chain ${originChain.id} carries (${minimumDeposit}); quote a larger amount`,
    );
  if (request.tradeType === "EXACT_INPUT" && request.amount < minimumDeposit) throw tooSmall(request.amount);
  const price = priceQuote({
    tradeType: request.tradeType,
    amount: request.amount,
    currencyIn: { decimals: currencyIn.decimals, usdPriceE18: priceIn },
    currencyOut: { decimals: currencyOut.decimals, usdPriceE18: priceOut },
    fillGasCost,
    fillRentCost,
    destinationNative: { decimals: market.destinationNative.decimals, usdPriceE18: market.priceDestinationNative },
    serviceFeeBps: deps.settings.serviceFeeBps,
    slippageBps: request.slippageBps ?? deps.settings.defaultSlippageBps,
    isFixedRate: kind.isFixedRate,
    appFees: request.appFees,
    sponsorship: request.sponsorship,
    oracleBps,
  });
  // The spec's minimum for a same-chain swap, on the quoted value before fees (a swap that small would otherwise
  // be refused for its fees); sends, wraps, unwraps and calls are accepted at any size.
  const quotedUsd =
    request.tradeType === "EXACT_INPUT"
      ? usdValueE18(request.amount, currencyIn, priceIn)
      : usdValueE18(request.amount, currencyOut, priceOut);
  if (kind.requestType === "Same-chain Swap" && quotedUsd > 0n && quotedUsd < MINIMUM_SAME_CHAIN_SWAP_USD_E18) {
    throw new InvalidInputError(
      "AMOUNT_TOO_LOW",
      `a same-chain swap must be worth at least 0.05 USD; this one is worth ${formatUsd(quotedUsd)} USD`,
    );
  }
  if (!price) {
    throw new InvalidInputError(
      "AMOUNT_DOES_NOT_COVER_FEES",
      `amount ${request.amount} does not cover the fill's fees; quote a larger amount`,
    );
  }
  if (price.amountIn < minimumDeposit) throw tooSmall(price.amountIn);
  const sponsored = price.sponsored;
  if (sponsor && sponsored && sponsored.totalMicroUsd > 0n) {
    const balance = await deps.sponsorBalance(sponsor);
    if (balance < sponsored.totalMicroUsd) {
      throw new InvalidInputError(
        "SPONSOR_BALANCE_TOO_LOW",
        `the sponsor ${sponsor} has ${formatAmount(balance, 6)} USD of sponsorship left and this quote needs ${formatAmount(sponsored.totalMicroUsd, 6)}; an operator funds it (crossfill sponsors fund)`,
      );
    }
  }
  // The payout itself must be relayable (Bitcoin: not dust at the recipient's output), at its slippage floor too.
  const minimumPayout = destination.minimumPayout(currencyOut.address, request.recipient);
  if (price.minimumAmountOut < minimumPayout) {
    throw new InvalidInputError(
      "AMOUNT_TOO_LOW",
      `an output of ${price.minimumAmountOut} is below the smallest payment chain ${destinationChain.id} carries to ${request.recipient} (${minimumPayout}); quote a larger amount`,
    );
  }
  const callValue = request.calls.reduce((sum, call) => sum + call.value, 0n);
  if (price.minimumAmountOut < callValue) {
    throw new InvalidInputError(
      "INVALID_INPUT",
      `txs[].value: the output (${price.minimumAmountOut} at minimum) does not cover the sum of txs[].value (${callValue})`,
    );
  }

  const solverNeeds = price.amountOut + (fillCurrency.metadata.isNative ? fillGasCost : 0n);
  const available = await deps.inventory.available(destinationChain.id, fillCurrency.address);
  if (solverNeeds > available) {
    const most = fillCurrency.metadata.isNative ? available - fillGasCost : available;
    throw new InvalidInputError(
      "INSUFFICIENT_LIQUIDITY",
      `the solver can fill at most ${formatAmount(most > 0n ? most : 0n, fillCurrency.decimals)} ${fillCurrency.symbol} on chain ${destinationChain.id} right now`,
    );
  }
  // The rent of the recipient's new account is paid in the native currency: beside a payout in another one, out of
  // the same balance as a native payout (the exchange's activation fee on a perps USDC payout).
  if (fillRentCost > 0n) {
    const native = market.destinationNative;
    const nativeAvailable = await deps.inventory.available(destinationChain.id, native.address);
    const payout = fillCurrency.metadata.isNative ? price.amountOut : 0n;
    if (nativeAvailable < fillRentCost + fillGasCost + payout)
      throw new InvalidInputError(
        "INSUFFICIENT_FUNDS_FOR_RENT",
        `the solver holds ${formatAmount(nativeAvailable, native.decimals)} ${native.symbol} on chain ${destinationChain.id} and opening ${request.recipient}'s account needs ${formatAmount(fillRentCost, native.decimals)} of rent and ${formatAmount(fillGasCost, native.decimals)} of fee${payout ? ` beside the payout of ${formatAmount(payout, native.decimals)}` : ""}`,
      );
  }
  return price;
}
