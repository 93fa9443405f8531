import { randomBytes } from "node:crypto";
import type { ChainAdapter, FillOrder } from "../chains/adapter.js";
import type { ChainAdapters } from "../chains/chainAdapters.js";
import type { ChainRegistry, Currency } from "../chains/chainRegistry.js";
import type { ChainAvailabilityReader } from "../chains/createChainAvailability.js";
import { ForbiddenError, InvalidInputError, SimulationRevertedError } from "../domain/errors.js";
import { formatAmount } from "../domain/money.js";
import { DEFAULT_SPONSORED_APP_FEE_MAX_BPS, FEE_COMPONENTS, type FeeComponent } from "../domain/sponsorFees.js";
import { DEFAULT_OVERPAYMENT_TOLERANCE_BPS } from "../domain/overpaymentRule.js";
import { toStoredFeeSponsorship } from "../domain/storedFeeSponsorship.js";
import { computeOrderId, computeRequestId } from "../domain/order.js";
import type { NewRequest } from "../../schema/requests.js";
import { usdValueE18 } from "../pricing/usdValue.js";
import { amountObject, formatUsd } from "./amountObject.js";
import { priceOf } from "./priceOf.js";
import { assertChainsOpen } from "./assertChainsOpen.js";
import { buildOrder } from "./buildOrder.js";
import type { PriceSource } from "../pricing/priceSource.js";
import { priceQuote } from "./priceQuote.js";
import { quoteTiming } from "./quoteTiming.js";
import { nativeConversionOf } from "../domain/nativeConversion.js";
import { requestKindOf } from "./requestKindOf.js";
import type { SolverInventory } from "./solverInventory.js";
import { type QuoteRequest, validateQuoteRequest } from "./validateQuoteRequest.js";
import type { QuotedDepositAddress, findRegenerableDepositAddress } from "../../schema/depositAddresses.js";
import { depositAddressTerms } from "./depositAddressTerms.js";

const MINIMUM_SAME_CHAIN_SWAP_USD_E18 = 5n * 10n ** 16n;

export type QuoteEngineDeps = {
  registry: ChainRegistry;
  adapters: ChainAdapters;
  prices: PriceSource;
  inventory: SolverInventory;
  saveRequest: (request: NewRequest) => Promise<void>;
  settings: {
    serviceFeeBps: bigint;
    defaultSlippageBps: bigint;
    quoteTtlSeconds: number;
    /** OVERPAYMENT_TOLERANCE_BPS (domain default when absent). */
    overpaymentToleranceBps?: bigint;
    /** SPONSORED_APP_FEE_MAX_BPS (domain default when absent). */
    sponsoredAppFeeMaxBps?: bigint;
  };
  availability: ChainAvailabilityReader;
  /** An integrator's fee sponsorship balance, USD micro-units (schema/sponsorLedger). */
  sponsorBalance: (integrator: string) => Promise<bigint>;
  /**
   * Deposit addresses (schema/depositAddresses): a fresh derivation index, or the address of an expired unpaid request
   * of the same API key on identical terms to regenerate. Absent where nothing is saved (`/price`): no address is handed out.
   */
  depositAddresses?: {
    next(): Promise<number>;
    regenerable(
      route: RegenerableRoute,
    ): Promise<{ requestId: string; address: string; derivationIndex: number } | undefined>;
  };
  now?: () => number;
};

type RegenerableRoute = Parameters<typeof findRegenerableDepositAddress>[1];

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
 * A quote with destination calls runs its fill first: a call that reverts (or a token refusing the recipient)
 * refuses the quote with what the simulation saw. Other reverts (the solver's own setup) are the fill's to judge.
 */
async function simulateCalls(destination: ChainAdapter, order: FillOrder): Promise<void> {
  const { blockNumber, refusal } = await destination.simulateFill(order);
  if (!refusal) return;
  const { failure, call } = refusal;
  const causedByRequest =
    failure.details.callIndex !== undefined || failure.failReason === "DESTINATION_TOKEN_TRANSFER_REJECTED";
  if (!causedByRequest) return;
  throw new SimulationRevertedError(String(failure.details.message), {
    errorData: refusal.revertData ?? "0x",
    requestId: order.requestId,
    approxSimulatedBlock: Number(blockNumber),
    failedCallData: { ...call, value: call.value.toString() },
  });
}

/** Validates, prices, records and answers one quote: the spec's Quote response. */
export async function createQuote(
  deps: QuoteEngineDeps,
  body: unknown,
  context: { apiKeyId?: string; integrator?: string; sponsors?: boolean } = {},
) {
  const request = validateQuoteRequest(body, deps.registry, deps.adapters);
  const sponsor = request.sponsorship ? context.integrator : undefined;
  if (request.sponsorship && !sponsor) {
    throw new InvalidInputError(
      "INVALID_INPUT",
      "subsidizeFees needs an x-api-key: the sponsor is the integrator of the key the quote is made with",
    );
  }
  if (request.sponsorship && !context.sponsors) {
    throw new ForbiddenError(
      "subsidizeFees: this key may not sponsor fees; an operator allows a key to (crossfill sponsors allow <key id>)",
    );
  }
  // A sponsor paying the app bucket pays the quote's app-fee recipients: capped, as those may be the sponsor itself.
  const appFeeBps = request.appFees.reduce((sum, fee) => sum + fee.bps, 0n);
  const appFeeMaxBps = deps.settings.sponsoredAppFeeMaxBps ?? DEFAULT_SPONSORED_APP_FEE_MAX_BPS;
  if (request.sponsorship?.components.includes("app") && appFeeBps > appFeeMaxBps) {
    throw new InvalidInputError(
      "INVALID_INPUT",
      `appFees: a quote whose sponsor pays the app bucket may carry at most ${appFeeMaxBps} bps of app fees in all; this one carries ${appFeeBps}`,
    );
  }
  const { currencyIn, currencyOut, originChain, destinationChain } = request;
  await assertChainsOpen(deps.availability, [originChain, destinationChain]);
  const origin = deps.adapters.adapter(originChain.id);
  const destination = deps.adapters.adapter(destinationChain.id);
  const destinationNative = deps.registry.currency(destinationChain.id, destination.nativeCurrency)!;
  const originNative = deps.registry.currency(originChain.id, origin.nativeCurrency)!;

  const kind = requestKindOf({ ...request, wrappedNative: deps.registry.wrappedNative(originChain.id) });
  // A wrap or unwrap is filled by converting the input currency (one chain): the solver spends that, not the output.
  const conversion = nativeConversionOf(kind.requestType);
  const fillCurrency = conversion ? currencyIn : currencyOut;
  const [priceIn, priceOut, priceDestinationNative, priceOriginNative, fillGasCost, originGasFee, depositAccount] =
    await Promise.all([
      priceOf(deps.prices, currencyIn),
      priceOf(deps.prices, currencyOut),
      priceOf(deps.prices, destinationNative),
      priceOf(deps.prices, originNative),
      destination.estimateFee("fill", fillCurrency.address, request.calls.length, conversion),
      origin.estimateFee("deposit", currencyIn.address),
      origin.readDepositAccount(request.user, currencyIn.address),
    ]);

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
    destinationNative: { decimals: destinationNative.decimals, usdPriceE18: priceDestinationNative },
    serviceFeeBps: deps.settings.serviceFeeBps,
    slippageBps: request.slippageBps ?? deps.settings.defaultSlippageBps,
    isFixedRate: kind.isFixedRate,
    appFees: request.appFees,
    sponsorship: request.sponsorship,
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

  const usdIn = usdValueE18(price.amountIn, currencyIn, priceIn);
  const timing = quoteTiming({
    ttlSeconds: deps.settings.quoteTtlSeconds,
    originBlockTimeSeconds: originChain.blockTimeSeconds,
    destinationBlockTimeSeconds: destinationChain.blockTimeSeconds,
    confirmations: origin.requiredConfirmations(usdIn),
  });
  const now = deps.now?.() ?? Date.now();
  const deadline = Math.floor(now / 1000) + timing.lifetimeSeconds;
  const order = buildOrder(request, price, {
    solver: destination.solverAddress,
    feeRecipient: origin.solverAddress,
    originAddress: origin.address,
    destinationAddress: destination.address,
    salt: BigInt(`0x${randomBytes(8).toString("hex")}`),
    deadline,
  });
  const orderId = computeOrderId(order);
  const requestId = computeRequestId(orderId);
  const depositAddress = await quoteDepositAddress(request, deps, new Date(now), context.apiKeyId);
  const steps = await origin.depositSteps({
    user: request.user,
    currency: currencyIn,
    amount: price.amountIn,
    orderId,
    requestId,
    allowance: depositAccount.allowance,
    destinationName: destinationChain.displayName ?? destinationChain.name,
    // `/price` hands out no address: its steps are never shown.
    ...(request.depositAddress ? { depositAddress: depositAddress?.address ?? "" } : {}),
  });
  const orderSignature = request.includeProtocolData ? await destination.signOrder(orderId) : undefined;

  const relayerFee = price.relayerGasFee + price.relayerServiceFee;
  const appFeeTotal = price.appFees.reduce((sum, amount) => sum + amount, 0n);
  // Kept with the request: its records show each recipient's share, and the fill credits them (appFeeLedger).
  const appFees = request.appFees.map((fee, index) => {
    const { amount, amountFormatted, amountUsd } = amountObject(currencyIn, price.appFees[index], priceIn);
    return { recipient: fee.recipient, bps: fee.bps.toString(), amount, amountFormatted, amountUsd };
  });
  const zero = (currency: Currency) => amountObject(currency, 0n, 0n);
  const fees = {
    gas: amountObject(originNative, originGasFee, priceOriginNative),
    relayer: amountObject(currencyIn, relayerFee, priceIn),
    relayerGas: amountObject(currencyIn, price.relayerGasFee, priceIn),
    relayerService: amountObject(currencyIn, price.relayerServiceFee, priceIn),
    app: amountObject(currencyIn, appFeeTotal, priceIn),
    subsidized: amountObject(currencyIn, sponsored?.total ?? 0n, priceIn),
  };
  await assertChainsOpen(deps.availability, [originChain, destinationChain], usdIn);
  if (request.calls.length > 0) {
    await simulateCalls(destination, {
      requestId,
      orderId,
      currency: currencyOut.address,
      amount: price.amountOut,
      recipient: request.recipient,
      calls: request.calls,
      currencySymbol: currencyOut.symbol,
    });
  }
  const usdOut = usdValueE18(price.amountOut, currencyOut, priceOut);
  const slippageBps = kind.isFixedRate ? 0n : (request.slippageBps ?? deps.settings.defaultSlippageBps);
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
    currencyGasTopup: zero(destinationNative),
    totalImpact: { usd: formatUsd(usdOut - usdIn), percent: percentOf(usdOut - usdIn, usdIn) },
    swapImpact: { usd: "0", percent: "0" },
    expandedPriceImpact: {
      swap: { usd: "0" },
      execution: { usd: formatUsd(-usdValueE18(price.relayerGasFee, currencyIn, priceIn)) },
      relay: { usd: formatUsd(-usdValueE18(price.relayerServiceFee, currencyIn, priceIn)) },
      app: { usd: formatUsd(-usdValueE18(appFeeTotal, currencyIn, priceIn)) },
      // Positive: what the sponsor pays is a gain to the user.
      sponsored: { usd: formatUsd(usdValueE18(sponsored?.total ?? 0n, currencyIn, priceIn)) },
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
    timeEstimate: timing.timeEstimate,
    userBalance: depositAccount.balance.toString(),
    fallbackType: "none",
    isFixedRate: kind.isFixedRate,
    fixedRateFee: { usd: "0" },
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
    rent: 0n,
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

  await deps.saveRequest({
    id: requestId,
    orderId,
    requestType: kind.requestType,
    tradeType: request.tradeType,
    user: request.user,
    recipient: request.recipient,
    refundTo: request.refundTo,
    originChainId: originChain.id,
    destinationChainId: destinationChain.id,
    originCurrency: currencyIn.address,
    destinationCurrency: currencyOut.address,
    amountIn: price.amountIn,
    amountOut: price.amountOut,
    minimumAmountOut: price.minimumAmountOut,
    slippageBps,
    latePaymentSlippageBps: request.latePaymentSlippageBps,
    deadline: new Date(deadline * 1000),
    referrer: request.referrer,
    calls: request.calls.map((call) => ({ to: call.to, value: call.value.toString(), data: call.data })),
    orderData: order,
    quote: {
      fees,
      details,
      feeSponsorship: toStoredFeeSponsorship(feeSponsorship),
      appFees,
      // How far over its input an exact-input deposit fills at this quote's rate (overpaymentRuleOf reads it; a
      // sponsored quote has none whatever this says).
      overpaymentToleranceBps: (deps.settings.overpaymentToleranceBps ?? DEFAULT_OVERPAYMENT_TOLERANCE_BPS).toString(),
      // Marks the request's `deposit_address` feature (migration 0130).
      ...(depositAddress ? { depositAddress: { type: depositAddress.type } } : {}),
      // Drawn from the sponsor's balance when the fill is signed (jobs/fill.ts), with what it pays per bucket in the
      // input currency: the app bucket matches, to the unit, what the recipients earn for it.
      ...(sponsor && sponsored && sponsored.total > 0n
        ? {
            sponsor: {
              integrator: sponsor,
              amountMicroUsd: sponsored.totalMicroUsd.toString(),
              payment: {
                chainId: originChain.id,
                currency: currencyIn.address,
                amount: sponsored.total.toString(),
                components: Object.fromEntries(
                  FEE_COMPONENTS.map((component) => [component, sponsored.sponsored[component].toString()]),
                ),
              },
            },
          }
        : {}),
    },
    apiKeyId: context.apiKeyId ?? null,
    ...(depositAddress ? { depositAddress } : {}),
  });

  return { requestId, steps, fees, feeSponsorship, details, protocol };
}

/**
 * The deposit address of a `useDepositAddress` quote: the address of an expired, unpaid request the same API key
 * quoted on identical terms (regenerated: the new request supersedes it), else the address of a fresh derivation
 * index. A keyless quote always gets a fresh one.
 */
async function quoteDepositAddress(
  request: QuoteRequest,
  deps: QuoteEngineDeps,
  now: Date,
  apiKeyId: string | undefined,
): Promise<QuotedDepositAddress | undefined> {
  if (!request.depositAddress || !deps.depositAddresses) return undefined;
  const { originChain } = request;
  const type = request.depositAddress.type;
  const terms = depositAddressTerms(request, apiKeyId);
  const previous = terms && (await deps.depositAddresses.regenerable({ chainId: originChain.id, terms, now }));
  if (previous)
    return {
      chainId: originChain.id,
      address: previous.address,
      derivationIndex: previous.derivationIndex,
      type,
      supersedes: previous.requestId,
      terms,
    };
  const derivationIndex = await deps.depositAddresses.next();
  const address = deps.adapters.adapter(originChain.id).depositAddressAt!(derivationIndex);
  return { chainId: originChain.id, address, derivationIndex, type, ...(terms ? { terms } : {}) };
}
