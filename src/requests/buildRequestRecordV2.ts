import { depositAddressOf } from "./depositAddressOf.js";
import type { RequestView } from "../../schema/requestsQuery.js";
import { type RecordContext, failReasonOf, sponsorshipActual } from "./buildRequestRecordV3.js";
import { orNotApplicable } from "../domain/failReasons.js";
import { readStoredFeeSponsorship } from "../domain/storedFeeSponsorship.js";
import { type RequestAppFee, requestAppFees } from "./requestAppFees.js";
import { refundCurrencyData } from "./refundCurrencyData.js";
import { type FeePhase, requestFees } from "./requestFees.js";
import { type Amount, type CurrencyObject, requestRoute } from "./requestRoute.js";

type StoredQuote = {
  fees?: Record<string, Amount>;
  details?: Record<string, unknown> & {
    timeEstimate?: number;
    rate?: string;
    expandedPriceImpact?: unknown;
    currencyGasTopup?: unknown;
  };
  feeSponsorship?: unknown;
};

// v2 had no `submitted`: a submitted fill was still `pending` there.
const v2Status = (status: RequestView["status"]) => (status === "submitted" ? "pending" : status);

/** Currency string ids of v2 were lower-case symbols. */
const currencyId = (amount: Amount) => amount.currency.symbol.toLowerCase();

/** The v2 `expandedPriceImpact` phase of a v3 fee phase: USD only, the service's component named `relay`. */
function impactOf(phase: FeePhase) {
  const { platform, ...rest } = phase;
  return Object.fromEntries(
    Object.entries({ ...rest, relay: platform }).map(([name, value]) => [name, { usd: value.usd }]),
  );
}

/** The deprecated v2 record, derived from the same data as v3; `includeOrderData` adds the order. */
export function buildRequestRecordV2(
  view: RequestView,
  context: RecordContext & {
    includeOrderData: boolean;
    nativeCurrencyOf: (chainId: number) => CurrencyObject | undefined;
  },
) {
  const quote = (view.quote ?? {}) as StoredQuote;
  const route = requestRoute(view, context.currencyOf);
  const fees = quote.fees ?? {};
  const sponsorship = readStoredFeeSponsorship(quote.feeSponsorship);
  const wei = (amount: Amount | undefined) => amount?.amount ?? "0";
  const usd = (amount: Amount | undefined) => amount?.amountUsd ?? "0";
  const owner =
    context.includeAuthenticatedData &&
    context.callerIntegrator !== undefined &&
    view.apiKeyIntegrator === context.callerIntegrator;
  const tx = (
    t: { chainId: number; txHash: string; blockNumber: bigint; timestamp: bigint; txFee: bigint | null },
    data: Record<string, unknown>,
  ) => ({
    hash: t.txHash,
    fee: (t.txFee ?? 0n).toString(),
    block: Number(t.blockNumber),
    type: "onchain",
    chainId: t.chainId,
    timestamp: Number(t.timestamp),
    data,
    stateChanges: [],
  });
  const order = view.orderData as { output?: unknown } | undefined;
  // Public callers do not see where a pending request's output goes before it is filled.
  const orderData =
    context.includeOrderData && order
      ? v2Status(view.status) === "pending" && !owner
        ? { ...order, output: undefined }
        : order
      : undefined;
  const appFees = requestAppFees(view, route.deposited, route.currencyIn.decimals);
  // v2's shape: no amountFormatted; amountUsdCurrent at the same (quote-time) price as amountUsd.
  const v2AppFee = (fee: RequestAppFee) => ({
    recipient: fee.recipient,
    bps: fee.bps,
    amount: fee.amount,
    amountUsd: fee.amountUsd,
    amountUsdCurrent: fee.amountUsd,
  });
  // What the sponsor paid, once the request filled (v3 has it as feeSponsorship.actual.sponsorPayment).
  const subsidized = view.status === "success" ? fees.subsidized : undefined;
  const sponsorPaid = {
    amount: wei(subsidized),
    address: subsidized?.currency.address ?? null,
    chainId: view.originChainId,
  };

  return {
    id: view.id,
    status: v2Status(view.status),
    user: view.user,
    recipient: view.recipient,
    depositAddress: depositAddressV2(view),
    partnerId: null,
    referrer: view.referrer,
    data: {
      slippageTolerance: view.slippageBps.toString(),
      failReason: orNotApplicable(failReasonOf(view)),
      refundFailReason: orNotApplicable(view.refundFailReason),
      supersededByRequestId: view.depositAddress?.supersededByRequestId ?? null,
      failedTxHash: view.failedTransaction?.txHash ?? null,
      failedTxBlockNumber:
        view.failedTransaction?.blockNumber == null ? null : Number(view.failedTransaction.blockNumber),
      failedCallData: view.failedTransaction?.call ?? null,
      subsidizedRequest: BigInt(fees.subsidized?.amount ?? "0") > 0n,
      fees: { gas: wei(fees.relayerGas), fixed: "0", price: "0", gateway: wei(fees.relayerService) },
      feesUsd: { gas: usd(fees.relayerGas), fixed: "0", price: "0", gateway: usd(fees.relayerService) },
      inTxs: view.deposits.map((deposit) => {
        // The deposit transaction paid its network fee in its chain's native currency.
        const native = context.nativeCurrencyOf(deposit.chainId);
        return {
          ...tx(deposit, {
            from: deposit.depositor,
            to: context.depositoryOf(deposit.chainId),
            value: deposit.amount.toString(),
          }),
          currency: currencyId(route.quotedIn),
          currencyObject: route.currencyIn,
          feeCurrency: native ? native.symbol.toLowerCase() : null,
          feeCurrencyObject: native ?? null,
        };
      }),
      currency: currencyId(route.quotedIn),
      currencyObject: route.currencyIn,
      feeCurrency: currencyId(route.quotedIn),
      feeCurrencyObject: route.currencyIn,
      appFeeCurrencyObject: route.currencyIn,
      refundCurrencyData: refundCurrencyData(view, route, context.currencyOf),
      appFees: appFees.quoted.map(v2AppFee),
      paidAppFees: appFees.actual.map(v2AppFee),
      subsidizedFee: {
        origin: sponsorPaid,
        sponsor: sponsorPaid,
        amountUsd: usd(subsidized),
        amountUsdCurrent: usd(subsidized),
      },
      expandedPriceImpact: {
        quoted: quote.details?.expandedPriceImpact ?? null,
        // v2 names the service's component `relay`; v3's fees.actual has the amounts (requestFees).
        actual: route.received !== null ? impactOf(requestFees(view, route).actual) : null,
      },
      feeSponsorship: sponsorship
        ? { ...sponsorship, actual: sponsorshipActual(view.status, sponsorship.actual) }
        : null,
      outTxs: view.fills.map((fill) => tx(fill, { to: view.recipient, value: fill.amount.toString() })),
      price: route.actual.rate,
      usesExternalLiquidity: false,
      timeEstimate: quote.details?.timeEstimate ?? 0,
      metadata: {
        sender: view.user,
        recipient: view.recipient,
        currencyIn: route.actual.origin.inputCurrency ?? route.quotedIn,
        currencyOut: (route.actual.destination ?? route.actual.origin).outputCurrency ?? route.quotedOut,
        rate: route.actual.rate,
        route: route.quoted,
        currencyGasTopup: quote.details?.currencyGasTopup ?? null,
      },
    },
    protocol: { orderId: view.orderId, hubType: "onchain", ...(orderData ? { orderData } : {}) },
    createdAt: view.createdAt.toISOString(),
    updatedAt: view.updatedAt.toISOString(),
  };
}

/** v2 names the type `depositAddressType`. */
function depositAddressV2(view: RequestView) {
  const record = depositAddressOf(view);
  if (!record) return null;
  const { address, type, depositor, depositTxHash } = record;
  return { address, depositAddressType: type, depositor, depositTxHash };
}
