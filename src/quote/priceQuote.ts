import { divCeil } from "../domain/money.js";
import { type AppFee, splitAppFees } from "../domain/splitAppFees.js";
import { type SponsoredFees, type SponsorshipTerms, sponsorFees } from "../domain/sponsorFees.js";
import { type PricedCurrency, convertAmount } from "../pricing/convertAmount.js";

export type PriceQuoteInput = {
  tradeType: "EXACT_INPUT" | "EXACT_OUTPUT";
  amount: bigint;
  currencyIn: PricedCurrency;
  currencyOut: PricedCurrency;
  /** The solver's cost of the destination fill, in the destination chain's native currency. */
  fillGasCost: bigint;
  /** The rent the fill pays to open the recipient's account, in the destination chain's native currency (0: none). */
  fillRentCost: bigint;
  destinationNative: PricedCurrency;
  serviceFeeBps: bigint;
  slippageBps: bigint;
  /** Same asset on both sides: the rate cannot move, so the minimum is the expected amount. */
  isFixedRate: boolean;
  /** The integrators' fees, shares of the input; none when absent. */
  appFees?: readonly AppFee[];
  /** The sponsor's share of the fees, when the quote asked for one. */
  sponsorship?: SponsorshipTerms;
  /**
   * Fixed-bps oracle pricing (the caller's key, set by the operator): the input converts at the oracle rate less these
   * bps, which replace the service fee and carry the fill's gas and rent (a quote whose bps do not cover them is
   * refused); app fees come on top. Absent: the normal pricing.
   */
  oracleBps?: bigint;
};

export type PriceQuote = {
  amountIn: bigint;
  amountOut: bigint;
  minimumAmountOut: bigint;
  /** Both fees are charged in the input currency and taken out of `amountIn`. */
  relayerGasFee: bigint;
  relayerServiceFee: bigint;
  /** The fill's rent (`fillRentCost`) in the input currency, taken out of `amountIn` like the gas. */
  rentFee: bigint;
  /** Each app fee recipient's share of `amountIn`, in the input currency, in the order of the request. */
  appFees: bigint[];
  /** What the sponsor pays of the fees above (the user pays the rest); undefined without sponsorship. */
  sponsored: SponsoredFees | undefined;
};

const sum = (amounts: readonly bigint[]) => amounts.reduce((total, amount) => total + amount, 0n);

/** The sponsor's part of these fees, valued in USD micro-units at the input currency's price. */
function sponsorship(
  input: PriceQuoteInput,
  fees: { relayerGasFee: bigint; relayerServiceFee: bigint; rentFee: bigint; appFees: readonly bigint[] },
): SponsoredFees | undefined {
  if (!input.sponsorship) return undefined;
  const { decimals, usdPriceE18 } = input.currencyIn;
  const unit = 10n ** BigInt(decimals);
  return sponsorFees(
    {
      execution: fees.relayerGasFee,
      swap: 0n,
      relay: fees.relayerServiceFee,
      app: sum(fees.appFees),
      rent: fees.rentFee,
    },
    input.sponsorship,
    (amount) => (amount * usdPriceE18) / unit / 10n ** 12n,
    (microUsd) => (microUsd * 10n ** 12n * unit) / usdPriceE18,
  );
}

/**
 * The quote's amounts. Returns undefined when fees eat the whole input: the caller answers AMOUNT_DOES_NOT_COVER_FEES.
 */
export function priceQuote(input: PriceQuoteInput): PriceQuote | undefined {
  const relayerGasFee = convertAmount(input.fillGasCost, input.destinationNative, input.currencyIn, true);
  const rentFee = convertAmount(input.fillRentCost, input.destinationNative, input.currencyIn, true);
  const appFeeShares = input.appFees ?? [];
  if (input.tradeType === "EXACT_INPUT") {
    const amountIn = input.amount;
    const relayerServiceFee =
      input.oracleBps === undefined
        ? divCeil(amountIn * input.serviceFeeBps, 10_000n)
        : divCeil(amountIn * input.oracleBps, 10_000n) - relayerGasFee - rentFee;
    if (relayerServiceFee < 0n) return undefined;
    const appFees = splitAppFees(amountIn, appFeeShares);
    const sponsored = sponsorship(input, { relayerGasFee, relayerServiceFee, rentFee, appFees });
    // What the sponsor pays of the fees comes back to the user as output.
    const netIn = amountIn - relayerGasFee - relayerServiceFee - rentFee - sum(appFees) + (sponsored?.total ?? 0n);
    if (netIn <= 0n || netIn > amountIn) return undefined;
    const amountOut = convertAmount(netIn, input.currencyIn, input.currencyOut);
    if (amountOut <= 0n) return undefined;
    const slippage = input.isFixedRate ? 0n : (amountOut * input.slippageBps) / 10_000n;
    return {
      amountIn,
      amountOut,
      minimumAmountOut: amountOut - slippage,
      relayerGasFee,
      relayerServiceFee,
      rentFee,
      appFees,
      sponsored,
    };
  }
  const amountOut = input.amount;
  const netIn = convertAmount(amountOut, input.currencyOut, input.currencyIn, true);
  const shareBps = (input.oracleBps ?? input.serviceFeeBps) + sum(appFeeShares.map((fee) => fee.bps));
  if (shareBps >= 10_000n) return undefined;
  // Normal pricing adds the gas and rent to the input; oracle pricing carries them inside its bps.
  const added = input.oracleBps === undefined ? relayerGasFee + rentFee : 0n;
  const grossIn = divCeil((netIn + added) * 10_000n, 10_000n - shareBps);
  // App fees round down; what rounding leaves over stays with the service fee, so the input adds up exactly.
  const appFees = splitAppFees(grossIn, appFeeShares);
  const relayerServiceFee = grossIn - netIn - relayerGasFee - rentFee - sum(appFees);
  if (relayerServiceFee < 0n) return undefined;
  const sponsored = sponsorship(input, { relayerGasFee, relayerServiceFee, rentFee, appFees });
  // The fees are priced on the gross input; the user deposits it less what the sponsor pays.
  return {
    amountIn: grossIn - (sponsored?.total ?? 0n),
    amountOut,
    minimumAmountOut: amountOut,
    relayerGasFee,
    relayerServiceFee,
    rentFee,
    appFees,
    sponsored,
  };
}
