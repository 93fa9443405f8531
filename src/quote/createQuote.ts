import { randomBytes } from "node:crypto";
import type { ChainAdapter, FillOrder } from "../chains/adapter.js";
import type { ChainAdapters } from "../chains/chainAdapters.js";
import type { ChainRegistry, Currency } from "../chains/chainRegistry.js";
import type { ChainAvailabilityReader } from "../chains/createChainAvailability.js";
import { InvalidInputError, SimulationRevertedError } from "../domain/errors.js";
import { formatAmount } from "../domain/money.js";
import { computeOrderId, computeRequestId } from "../domain/order.js";
import type { NewRequest } from "../../schema/requests.js";
import { usdValueE18 } from "../pricing/usdValue.js";
import { amountObject, formatUsd } from "./amountObject.js";
import { priceOf } from "./priceOf.js";
import { assertChainsOpen } from "./assertChainsOpen.js";
import { buildOrder } from "./buildOrder.js";
import type { PriceSource } from "../pricing/priceSource.js";
import { priceQuote } from "./priceQuote.js";
import type { SolverInventory } from "./solverInventory.js";
import { type QuoteRequest, validateQuoteRequest } from "./validateQuoteRequest.js";

export type QuoteEngineDeps = {
  registry: ChainRegistry;
  adapters: ChainAdapters;
  prices: PriceSource;
  inventory: SolverInventory;
  saveRequest: (request: NewRequest) => Promise<void>;
  settings: { serviceFeeBps: bigint; defaultSlippageBps: bigint; quoteTtlSeconds: number };
  availability: ChainAvailabilityReader;
  now?: () => number;
};

function requestTypeOf(request: QuoteRequest): { requestType: string; operation: string; isFixedRate: boolean } {
  if (request.calls.length > 0) return { requestType: "Call", operation: "call", isFixedRate: false };
  const sameAsset = request.currencyIn.symbol.toUpperCase() === request.currencyOut.symbol.toUpperCase();
  return sameAsset
    ? { requestType: "Bridge", operation: "bridge", isFixedRate: true }
    : { requestType: "Crosschain Swap", operation: "swap", isFixedRate: false };
}

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
export async function createQuote(deps: QuoteEngineDeps, body: unknown, context: { apiKeyId?: string } = {}) {
  const request = validateQuoteRequest(body, deps.registry, deps.adapters);
  const { currencyIn, currencyOut, originChain, destinationChain } = request;
  await assertChainsOpen(deps.availability, [originChain, destinationChain]);
  const origin = deps.adapters.adapter(originChain.id);
  const destination = deps.adapters.adapter(destinationChain.id);
  const destinationNative = deps.registry.currency(destinationChain.id, destination.nativeCurrency)!;
  const originNative = deps.registry.currency(originChain.id, origin.nativeCurrency)!;

  const [priceIn, priceOut, priceDestinationNative, priceOriginNative, fillGasCost, originGasFee, depositAccount] =
    await Promise.all([
      priceOf(deps.prices, currencyIn),
      priceOf(deps.prices, currencyOut),
      priceOf(deps.prices, destinationNative),
      priceOf(deps.prices, originNative),
      destination.estimateFee("fill", currencyOut.address, request.calls.length),
      origin.estimateFee("deposit", currencyIn.address),
      origin.readDepositAccount(request.user, currencyIn.address),
    ]);

  const kind = requestTypeOf(request);
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
  });
  if (!price) {
    throw new InvalidInputError(
      "AMOUNT_DOES_NOT_COVER_FEES",
      `amount ${request.amount} does not cover the fill's fees; quote a larger amount`,
    );
  }
  const callValue = request.calls.reduce((sum, call) => sum + call.value, 0n);
  if (price.minimumAmountOut < callValue) {
    throw new InvalidInputError(
      "INVALID_INPUT",
      `txs[].value: the output (${price.minimumAmountOut} at minimum) does not cover the sum of txs[].value (${callValue})`,
    );
  }

  const solverNeeds = price.amountOut + (currencyOut.metadata.isNative ? fillGasCost : 0n);
  const available = await deps.inventory.available(destinationChain.id, currencyOut.address);
  if (solverNeeds > available) {
    const most = currencyOut.metadata.isNative ? available - fillGasCost : available;
    throw new InvalidInputError(
      "INSUFFICIENT_LIQUIDITY",
      `the solver can fill at most ${formatAmount(most > 0n ? most : 0n, currencyOut.decimals)} ${currencyOut.symbol} on chain ${destinationChain.id} right now`,
    );
  }

  const now = deps.now?.() ?? Date.now();
  const deadline = Math.floor(now / 1000) + deps.settings.quoteTtlSeconds;
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
  const steps = origin.depositSteps({
    user: request.user,
    currency: currencyIn,
    amount: price.amountIn,
    orderId,
    requestId,
    allowance: depositAccount.allowance,
    destinationName: destinationChain.displayName ?? destinationChain.name,
  });
  const orderSignature = request.includeProtocolData ? await destination.signOrder(orderId) : undefined;

  const relayerFee = price.relayerGasFee + price.relayerServiceFee;
  const zero = (currency: Currency) => amountObject(currency, 0n, 0n);
  const fees = {
    gas: amountObject(originNative, originGasFee, priceOriginNative),
    relayer: amountObject(currencyIn, relayerFee, priceIn),
    relayerGas: amountObject(currencyIn, price.relayerGasFee, priceIn),
    relayerService: amountObject(currencyIn, price.relayerServiceFee, priceIn),
    app: zero(currencyIn),
    subsidized: zero(currencyIn),
  };
  const usdIn = usdValueE18(price.amountIn, currencyIn, priceIn);
  await assertChainsOpen(deps.availability, [originChain, destinationChain], usdIn);
  if (request.calls.length > 0) {
    await simulateCalls(destination, {
      requestId,
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
      app: { usd: "0" },
      sponsored: { usd: "0" },
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
    timeEstimate: Math.ceil(originChain.blockTimeSeconds + destinationChain.blockTimeSeconds + 1),
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
  const sponsorship = {
    selectedComponents: [],
    capHit: false,
    components: Object.fromEntries(
      (["execution", "swap", "relay", "app", "rent"] as const).map((component) => [
        component,
        { selected: false, total: zero(currencyIn), sponsored: zero(currencyIn), userPays: zero(currencyIn) },
      ]),
    ),
    sponsoredTotal: zero(currencyIn),
    userPaysTotal: zero(currencyIn),
    maxSubsidizationAmount: "0",
    subsidizationBps: 0,
  };
  const feeSponsorship = {
    quoted: sponsorship,
    actual: {
      ...sponsorship,
      sponsorPayment: { amount: "0", address: origin.nativeCurrency, chainId: originChain.id },
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
    quote: { fees, details, feeSponsorship },
    apiKeyId: context.apiKeyId ?? null,
  });

  return { requestId, steps, fees, feeSponsorship, details, protocol };
}
