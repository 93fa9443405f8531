import type { Currency } from "../chains/chainRegistry.js";
import { formatAmount } from "../domain/money.js";
import { FEE_COMPONENTS, type FeeComponent } from "../domain/sponsorFees.js";
import { usdValueE18 } from "../pricing/usdValue.js";
import { amountObject, formatUsd } from "./amountObject.js";
import { swapImpactUsdE18 } from "./swapImpactUsdE18.js";
import type { PriceQuote } from "./priceQuote.js";
import type { QuoteMarket } from "./readQuoteMarket.js";
import type { QuoteRequest } from "./validateQuoteRequest.js";

/** Rate of output per input in whole units, as a decimal string. */
function rateOf(amountIn: bigint, currencyIn: Currency, amountOut: bigint, currencyOut: Currency): string {
  const scaled =
    (amountOut * 10n ** BigInt(currencyIn.decimals) * 10n ** 18n) / (amountIn * 10n ** BigInt(currencyOut.decimals));
  return formatAmount(scaled, 18);
}

function percentOf(part: bigint, whole: bigint): string {
  if (whole === 0n) return "0";
  return formatAmount((part * 10_000n) / whole, 2);
}

/**
 * The spec's answer to a priced quote, all but its steps: the fees, each app-fee recipient's share, the details
 * (amounts, impacts, rate, slippage, timing, route), the fee sponsorship quoted and to be paid, and the protocol's
 * order. Pure: it reads what the earlier steps found.
 */
export function quoteResponse(args: {
  request: QuoteRequest;
  market: QuoteMarket;
  price: PriceQuote;
  order: { order: unknown; orderId: string; usdIn: bigint; timeEstimate: number };
  slippageBps: bigint;
  orderSignature: string | undefined;
}) {
  const { request, market, price, slippageBps, orderSignature } = args;
  const { order, orderId, usdIn } = args.order;
  const { currencyIn, currencyOut, originChain } = request;
  const { kind, priceIn, priceOut } = market;
  const sponsored = price.sponsored;
  // What the solver keeps: its gas, its fee and the rent it pays for the recipient's new account.
  const relayerFee = price.relayerGasFee + price.relayerServiceFee + price.rentFee;
  const appFeeTotal = price.appFees.reduce((sum, amount) => sum + amount, 0n);
  // Kept with the request: its records show each recipient's share, and the fill credits them (appFeeLedger).
  const appFees = request.appFees.map((fee, index) => {
    const { amount, amountFormatted, amountUsd } = amountObject(currencyIn, price.appFees[index], priceIn);
    return { recipient: fee.recipient, bps: fee.bps.toString(), amount, amountFormatted, amountUsd };
  });
  const zero = (currency: Currency) => amountObject(currency, 0n, 0n);
  const fees = {
    gas: amountObject(market.originNative, market.originGasFee, market.priceOriginNative),
    relayer: amountObject(currencyIn, relayerFee, priceIn),
    relayerGas: amountObject(currencyIn, price.relayerGasFee, priceIn),
    relayerService: amountObject(currencyIn, price.relayerServiceFee, priceIn),
    app: amountObject(currencyIn, appFeeTotal, priceIn),
    subsidized: amountObject(currencyIn, sponsored?.total ?? 0n, priceIn),
  };
  const usdOut = usdValueE18(price.amountOut, currencyOut, priceOut);
  const inUsd = (amount: bigint) => usdValueE18(amount, currencyIn, priceIn);
  const feesUsd =
    inUsd(price.relayerGasFee) + inUsd(price.rentFee) + inUsd(price.relayerServiceFee) + inUsd(appFeeTotal);
  const sponsoredUsd = inUsd(sponsored?.total ?? 0n);
  const swapImpact = swapImpactUsdE18({ usdIn, usdOut, feesUsd, sponsoredUsd });
  const slippageOut = price.amountOut - price.minimumAmountOut;
  const currencyInAmount = amountObject(currencyIn, price.amountIn, priceIn);
  const currencyOutAmount = amountObject(currencyOut, price.amountOut, priceOut, price.minimumAmountOut);
  const details = {
    operation: kind.operation,
    sender: request.user,
    recipient: request.recipient,
    currencyIn: currencyInAmount,
    currencyOut: currencyOutAmount,
    refundCurrency: currencyInAmount,
    currencyGasTopup: zero(market.destinationNative),
    totalImpact: { usd: formatUsd(usdOut - usdIn), percent: percentOf(usdOut - usdIn, usdIn) },
    swapImpact: { usd: formatUsd(swapImpact), percent: percentOf(swapImpact, usdIn) },
    expandedPriceImpact: {
      swap: { usd: formatUsd(swapImpact) },
      // The spec's impacts name no rent: opening the recipient's account is part of the fill's execution.
      execution: { usd: formatUsd(-inUsd(price.relayerGasFee) - inUsd(price.rentFee)) },
      relay: { usd: formatUsd(-inUsd(price.relayerServiceFee)) },
      app: { usd: formatUsd(-inUsd(appFeeTotal)) },
      // Positive: what the sponsor pays is a gain to the user.
      sponsored: { usd: formatUsd(sponsoredUsd) },
    },
    rate: rateOf(price.amountIn, currencyIn, price.amountOut, currencyOut),
    slippageTolerance: {
      total: formatAmount(slippageBps, 2),
      origin: { usd: "0", value: "0", percent: "0" },
      destination: {
        usd: formatUsd(usdValueE18(slippageOut, currencyOut, priceOut)),
        value: slippageOut.toString(),
        percent: formatAmount(slippageBps, 2),
      },
    },
    timeEstimate: args.order.timeEstimate,
    userBalance: market.depositAccount.balance.toString(),
    fallbackType: "none",
    isFixedRate: kind.isFixedRate,
    // A fixed-rate quote converts one for one: all it costs is its fees (what the sponsor does not pay).
    fixedRateFee: { usd: kind.isFixedRate ? formatUsd(feesUsd - sponsoredUsd) : "0" },
    route: {
      origin: {
        inputCurrency: currencyInAmount,
        outputCurrency: currencyInAmount,
        router: "crossfill",
        includedSwapSources: [],
      },
      destination: {
        inputCurrency: currencyOutAmount,
        outputCurrency: currencyOutAmount,
        router: "crossfill",
        includedSwapSources: [],
      },
    },
  };
  const feeTotals: Record<FeeComponent, bigint> = {
    execution: price.relayerGasFee,
    swap: 0n,
    relay: price.relayerServiceFee,
    app: appFeeTotal,
    rent: price.rentFee,
  };
  const sponsoredOf = (component: FeeComponent) => sponsored?.sponsored[component] ?? 0n;
  const money = (amount: bigint) => amountObject(currencyIn, amount, priceIn);
  const feeSum = Object.values(feeTotals).reduce((sum, amount) => sum + amount, 0n);
  const selected = request.sponsorship?.components ?? [];
  const sponsorship = {
    selectedComponents: FEE_COMPONENTS.filter((component) => selected.includes(component)),
    capHit: sponsored?.capHit ?? false,
    components: Object.fromEntries(
      FEE_COMPONENTS.map((component) => [
        component,
        {
          selected: selected.includes(component),
          total: money(feeTotals[component]),
          sponsored: money(sponsoredOf(component)),
          userPays: money(feeTotals[component] - sponsoredOf(component)),
        },
      ]),
    ),
    sponsoredTotal: money(sponsored?.total ?? 0n),
    userPaysTotal: money(feeSum - (sponsored?.total ?? 0n)),
    maxSubsidizationAmount: (request.sponsorship?.capMicroUsd ?? 0n).toString(),
    subsidizationBps: request.sponsorship ? Number(request.sponsorship.bps) : 0,
  };
  const feeSponsorship = {
    quoted: sponsorship,
    // The sponsor's payment is the sponsored total in the input currency, made when the request fills.
    actual: {
      ...sponsorship,
      sponsorPayment: {
        amount: (sponsored?.total ?? 0n).toString(),
        address: currencyIn.address,
        chainId: originChain.id,
      },
    },
  };
  const protocol = {
    v2: {
      orderId,
      hubType: "onchain",
      orderData: order,
      ...(orderSignature ? { orderSignature } : {}),
      paymentDetails: {
        chainId: originChain.id.toString(),
        depository: originChain.depository,
        currency: currencyIn.address,
        amount: price.amountIn.toString(),
      },
    },
  };
  return { fees, appFees, details, feeSponsorship, protocol };
}
