import type { AmountObject } from "../../../quote/amountObject.js";
import { type QuoteEngineDeps, createQuote } from "../../../quote/createQuote.js";
import { quoteCallerOf } from "../../../quote/quoteCallerOf.js";
import { builder } from "../builder.js";
import { AmountRef } from "./amount.js";
import { FeeSponsorshipRef } from "./feeSponsorship.js";

type Quote = Awaited<ReturnType<typeof createQuote>>;
type Step = Quote["steps"][number];
type StepItem = { status: string; data: unknown; check?: { endpoint: string; method: string } };
type Fees = Quote["fees"];
type Details = Quote["details"];
type Impact = { usd: string; percent: string };
type SlippageSide = { usd: string; value: string; percent: string };
type RouteLeg = {
  inputCurrency: AmountObject;
  outputCurrency: AmountObject;
  router: string;
  includedSwapSources: string[];
};
type ProtocolV2 = Quote["protocol"]["v2"] & { orderSignature?: string };

const StepCheckRef = builder.objectRef<{ endpoint: string; method: string }>("StepCheck").implement({
  fields: (t) => ({ endpoint: t.exposeString("endpoint"), method: t.exposeString("method") }),
});

const StepItemRef = builder.objectRef<StepItem>("StepItem").implement({
  fields: (t) => ({
    status: t.exposeString("status"),
    data: t.field({
      type: "JSON",
      description:
        "The transaction (EVM: from, to, data, value, chainId, …; Bitcoin: psbt, hex) or signature to perform.",
      resolve: (item) => item.data,
    }),
    check: t.field({ type: StepCheckRef, nullable: true, resolve: (item) => item.check ?? null }),
  }),
});

const StepRef = builder.objectRef<Step>("Step").implement({
  fields: (t) => ({
    id: t.exposeString("id"),
    action: t.exposeString("action"),
    description: t.exposeString("description"),
    kind: t.exposeString("kind"),
    requestId: t.exposeString("requestId"),
    depositAddress: t.string({ resolve: (step) => step.depositAddress ?? "" }),
    items: t.field({ type: [StepItemRef], resolve: (step) => step.items as StepItem[] }),
  }),
});

export const FeesRef = builder.objectRef<Fees>("Fees").implement({
  fields: (t) => ({
    gas: t.field({ type: AmountRef, resolve: (fees) => fees.gas }),
    relayer: t.field({ type: AmountRef, resolve: (fees) => fees.relayer }),
    relayerGas: t.field({ type: AmountRef, resolve: (fees) => fees.relayerGas }),
    relayerService: t.field({ type: AmountRef, resolve: (fees) => fees.relayerService }),
    app: t.field({ type: AmountRef, resolve: (fees) => fees.app }),
    subsidized: t.field({ type: AmountRef, resolve: (fees) => fees.subsidized }),
  }),
});

const ImpactRef = builder.objectRef<Impact>("Impact").implement({
  fields: (t) => ({ usd: t.exposeString("usd"), percent: t.exposeString("percent") }),
});

const UsdRef = builder.objectRef<{ usd: string }>("UsdValue").implement({
  fields: (t) => ({ usd: t.exposeString("usd") }),
});

const ExpandedPriceImpactRef = builder.objectRef<Details["expandedPriceImpact"]>("ExpandedPriceImpact").implement({
  description: "The price impact of each fee component, in USD (negative is a cost to the user).",
  fields: (t) => ({
    swap: t.field({ type: UsdRef, resolve: (impact) => impact.swap }),
    execution: t.field({ type: UsdRef, resolve: (impact) => impact.execution }),
    relay: t.field({ type: UsdRef, description: "The service's own fee.", resolve: (impact) => impact.relay }),
    app: t.field({ type: UsdRef, resolve: (impact) => impact.app }),
    sponsored: t.field({ type: UsdRef, resolve: (impact) => impact.sponsored }),
  }),
});

const SlippageSideRef = builder.objectRef<SlippageSide>("SlippageSide").implement({
  fields: (t) => ({ usd: t.exposeString("usd"), value: t.exposeString("value"), percent: t.exposeString("percent") }),
});

const SlippageToleranceRef = builder.objectRef<Details["slippageTolerance"]>("SlippageTolerance").implement({
  fields: (t) => ({
    total: t.exposeString("total"),
    origin: t.field({ type: SlippageSideRef, resolve: (slippage) => slippage.origin }),
    destination: t.field({ type: SlippageSideRef, resolve: (slippage) => slippage.destination }),
  }),
});

const RouteLegRef = builder.objectRef<RouteLeg>("RouteLeg").implement({
  fields: (t) => ({
    inputCurrency: t.field({ type: AmountRef, resolve: (leg) => leg.inputCurrency }),
    outputCurrency: t.field({ type: AmountRef, resolve: (leg) => leg.outputCurrency }),
    router: t.exposeString("router"),
    includedSwapSources: t.exposeStringList("includedSwapSources"),
  }),
});

const RouteRef = builder.objectRef<{ origin: RouteLeg; destination: RouteLeg }>("Route").implement({
  fields: (t) => ({
    origin: t.field({ type: RouteLegRef, resolve: (route) => route.origin }),
    destination: t.field({ type: RouteLegRef, resolve: (route) => route.destination }),
  }),
});

export const QuoteDetailsRef = builder.objectRef<Details>("QuoteDetails").implement({
  fields: (t) => ({
    operation: t.exposeString("operation"),
    sender: t.exposeString("sender"),
    recipient: t.exposeString("recipient"),
    currencyIn: t.field({ type: AmountRef, resolve: (details) => details.currencyIn }),
    currencyOut: t.field({ type: AmountRef, resolve: (details) => details.currencyOut }),
    refundCurrency: t.field({ type: AmountRef, resolve: (details) => details.refundCurrency }),
    currencyGasTopup: t.field({ type: AmountRef, resolve: (details) => details.currencyGasTopup }),
    totalImpact: t.field({ type: ImpactRef, resolve: (details) => details.totalImpact }),
    swapImpact: t.field({ type: ImpactRef, resolve: (details) => details.swapImpact }),
    expandedPriceImpact: t.field({ type: ExpandedPriceImpactRef, resolve: (details) => details.expandedPriceImpact }),
    rate: t.exposeString("rate"),
    slippageTolerance: t.field({ type: SlippageToleranceRef, resolve: (details) => details.slippageTolerance }),
    timeEstimate: t.exposeInt("timeEstimate", { description: "Seconds." }),
    userBalance: t.exposeString("userBalance"),
    fallbackType: t.exposeString("fallbackType"),
    isFixedRate: t.exposeBoolean("isFixedRate"),
    fixedRateFee: t.field({ type: UsdRef, resolve: (details) => details.fixedRateFee }),
    route: t.field({
      type: RouteRef,
      resolve: (details) => details.route as { origin: RouteLeg; destination: RouteLeg },
    }),
  }),
});

const PaymentDetailsRef = builder.objectRef<ProtocolV2["paymentDetails"]>("PaymentDetails").implement({
  fields: (t) => ({
    chainId: t.exposeString("chainId"),
    depository: t.exposeString("depository"),
    currency: t.exposeString("currency"),
    amount: t.exposeString("amount"),
  }),
});

const ProtocolV2Ref = builder.objectRef<ProtocolV2>("ProtocolV2").implement({
  fields: (t) => ({
    orderId: t.exposeString("orderId"),
    hubType: t.exposeString("hubType"),
    orderData: t.field({ type: "JSON", resolve: (protocol) => protocol.orderData }),
    orderSignature: t.string({ nullable: true, resolve: (protocol) => protocol.orderSignature ?? null }),
    paymentDetails: t.field({ type: PaymentDetailsRef, resolve: (protocol) => protocol.paymentDetails }),
  }),
});

const QuoteRef = builder.objectRef<Quote>("Quote").implement({
  description: "The answer to a quote: the steps to perform, fees and route; the same engine as POST /quote/v2.",
  fields: (t) => ({
    requestId: t.exposeString("requestId"),
    steps: t.field({ type: [StepRef], resolve: (quote) => quote.steps }),
    fees: t.field({ type: FeesRef, resolve: (quote) => quote.fees }),
    feeSponsorship: t.field({ type: FeeSponsorshipRef, resolve: (quote) => quote.feeSponsorship }),
    details: t.field({ type: QuoteDetailsRef, resolve: (quote) => quote.details }),
    protocolV2: t.field({ type: ProtocolV2Ref, resolve: (quote) => quote.protocol.v2 as ProtocolV2 }),
  }),
});

const TradeTypeEnum = builder.enumType("TradeType", { values: ["EXACT_INPUT", "EXACT_OUTPUT"] as const });

const CallInput = builder.inputType("CallInput", {
  description: "A call the Receiver makes on the destination chain after the fill.",
  fields: (t) => ({
    to: t.string({ required: true }),
    value: t.string({ description: "Wei, decimal string; default 0." }),
    data: t.string({ description: "0x-prefixed calldata; default 0x." }),
  }),
});

const AppFeeInput = builder.inputType("AppFeeInput", {
  description: "An integrator's fee taken from the input (docs/API.md, App fees).",
  fields: (t) => ({
    recipient: t.string({ required: true, description: "An EVM address; it claims the fee by signature." }),
    fee: t.string({ required: true, description: "Basis points, 1-10000." }),
  }),
});

const CreateQuoteInput = builder.inputType("CreateQuoteInput", {
  description: "The fields of POST /quote/v2; amounts are decimal strings in the smallest unit.",
  fields: (t) => ({
    user: t.string({ required: true }),
    recipient: t.string(),
    refundTo: t.string(),
    depositFeePayer: t.string({ description: "Solana origins: the wallet that signs and pays the deposit's fee." }),
    originChainId: t.int({ required: true }),
    destinationChainId: t.int({ required: true }),
    originCurrency: t.string({ required: true }),
    destinationCurrency: t.string({ required: true }),
    amount: t.string({ required: true }),
    tradeType: t.field({ type: TradeTypeEnum, required: true }),
    slippageTolerance: t.string({ description: "Basis points, 0-10000." }),
    referrer: t.string(),
    includeProtocolData: t.boolean(),
    txs: t.field({ type: [CallInput] }),
    appFees: t.field({ type: [AppFeeInput] }),
    subsidizeFees: t.boolean({ description: "The key's integrator sponsors the fees (needs an x-api-key)." }),
    sponsoredFeeComponents: t.stringList({ description: "execution, swap, relay, app, rent." }),
    maxSubsidizationAmount: t.string({ description: "USD micro-units." }),
    subsidizationBps: t.int({ description: "0-10000; swaps only." }),
  }),
});

/** GraphQL input → the REST body the engine validates (nulls mean "not given"). */
function toQuoteBody(input: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === null || value === undefined) continue;
    body[key] =
      key === "txs" || key === "appFees"
        ? (value as Array<Record<string, unknown>>).map((entry) => toQuoteBody(entry))
        : value;
  }
  return body;
}

builder.mutationFields((t) => ({
  createQuote: t.field({
    type: QuoteRef,
    args: { input: t.arg({ type: CreateQuoteInput, required: true }) },
    description:
      "POST /quote/v2 as a mutation. An x-api-key is optional; with one, the request is recorded as the key's.",
    resolve: async (_, { input }, context) => {
      return createQuote(
        context.quoteEngine as QuoteEngineDeps,
        toQuoteBody(input as Record<string, unknown>),
        quoteCallerOf(await context.apiKey()),
      );
    },
  }),
}));
