import { depositAddressOf } from "./depositAddressOf.js";
import { type SponsorshipPhase, readStoredFeeSponsorship } from "../domain/storedFeeSponsorship.js";
import type { RequestView } from "../../schema/requestsQuery.js";
import { requestAppFees } from "./requestAppFees.js";
import { quoteOraclePrice } from "./quoteOraclePrice.js";
import { refundCurrencyData } from "./refundCurrencyData.js";
import { requestFees } from "./requestFees.js";
import { type Amount, type CurrencyLookup, requestRoute } from "./requestRoute.js";

export type RecordContext = {
  currencyOf: CurrencyLookup;
  depositoryOf: (chainId: number) => string | null;
  /** The authenticated caller's integrator; authenticated-only fields need it to own the request. */
  callerIntegrator?: string;
  includeAuthenticatedData: boolean;
};

type StoredQuote = {
  fees?: Record<string, Amount>;
  details?: { timeEstimate?: number };
  feeSponsorship?: unknown;
};

/** Failure-side statuses carry a reason (recorded or UNKNOWN); every other status has null in the v3 record. */
export function failReasonOf(view: Pick<RequestView, "status" | "failReason">): string | null {
  return view.status === "failure" || view.status === "refund" ? (view.failReason ?? "UNKNOWN") : null;
}

/** v3 sponsorship names the service's component `platform`. */
function renameRelay(sponsorship: SponsorshipPhase | undefined): SponsorshipPhase | null {
  if (!sponsorship) return null;
  const rename = (name: string) => (name === "relay" ? "platform" : name);
  return {
    ...sponsorship,
    selectedComponents: (sponsorship.selectedComponents ?? []).map(rename),
    components: Object.fromEntries(
      Object.entries(sponsorship.components ?? {}).map(([name, value]) => [rename(name), value]),
    ),
  };
}

/**
 * The sponsorship as it happened: the sponsor pays when the request fills, so `sponsorPayment` is the sponsored
 * total once it succeeded and 0 before (or when it failed: the draw is released and nothing is paid).
 */
export function sponsorshipActual(status: RequestView["status"], actual: SponsorshipPhase | undefined) {
  if (!actual || status === "success") return actual;
  const payment = actual.sponsorPayment;
  return payment ? { ...actual, sponsorPayment: { ...payment, amount: "0" } } : actual;
}

function txEntry(
  tx: { chainId: number; txHash: string; blockNumber: bigint; timestamp: bigint; txFee: bigint | null },
  data: Record<string, unknown>,
) {
  return {
    txHash: tx.txHash,
    // "0" for facts recorded before fees were (migration 0062).
    fee: (tx.txFee ?? 0n).toString(),
    block: Number(tx.blockNumber),
    type: "onchain",
    chainId: tx.chainId,
    timestamp: Number(tx.timestamp),
    status: "success",
    data,
    stateChanges: [],
  };
}

/** A fill mined and reverted, as a failed outTxs entry carrying the call it made (none for one refused in simulation). */
function revertedFillTx(view: RequestView) {
  const failed = view.failedTransaction;
  if (!failed?.txHash || failed.blockNumber === null || failed.timestamp === null) return [];
  const tx = {
    chainId: view.destinationChainId,
    txHash: failed.txHash,
    blockNumber: failed.blockNumber,
    timestamp: failed.timestamp,
    txFee: failed.fee,
  };
  return [{ ...txEntry(tx, failed.call), status: "failure" }];
}

/** The spec's v3 Request record, from what the pipeline stored. */
export function buildRequestRecordV3(view: RequestView, context: RecordContext) {
  const quote = (view.quote ?? {}) as StoredQuote;
  const route = requestRoute(view, context.currencyOf);
  const fees = quote.fees ?? {};
  const sponsorship = readStoredFeeSponsorship(quote.feeSponsorship);
  const depositAddress = depositAddressOf(view);
  const firstDeposit = view.deposits.find((deposit) => deposit.chainId === view.originChainId && !deposit.reorg);
  const order = (view.orderData ?? {}) as { solver?: string; solverChainId?: string };
  const owner =
    context.includeAuthenticatedData &&
    context.callerIntegrator !== undefined &&
    view.apiKeyIntegrator === context.callerIntegrator;

  return {
    id: view.id,
    status: view.status,
    user: view.user,
    sender: view.user,
    recipient: view.recipient,
    refundTo: view.refundTo,
    depositAddress: depositAddress && { ...depositAddress, recoveryAddress: null },
    requestType: view.requestType,
    supersededByRequestId: view.depositAddress?.supersededByRequestId ?? null,
    features: view.features,
    data: {
      slippageTolerance: view.slippageBps.toString(),
      failReason: failReasonOf(view),
      refundFailReason: view.refundFailReason,
      failedTxHash: view.failedTransaction?.txHash ?? null,
      failedTxBlockNumber:
        view.failedTransaction?.blockNumber == null ? null : Number(view.failedTransaction.blockNumber),
      failedCallData: view.failedTransaction?.call ?? null,
      usesExternalLiquidity: false,
      timeEstimate: quote.details?.timeEstimate ?? 0,
      triggeredByFastFill: null,
      inTxs: view.deposits.map((deposit) => {
        const entry = txEntry(deposit, {
          from: deposit.depositor,
          to: context.depositoryOf(deposit.chainId),
          currency: deposit.currency,
          amount: deposit.amount.toString(),
        });
        // A deposit reorged out (or failed canonically) is reported as failed with its detection context.
        return deposit.reorg ? { ...entry, status: "failure", metadata: { reorg: deposit.reorg } } : entry;
      }),
      outTxs: [
        ...view.fills.map((fill) => {
          const entry = txEntry(fill, {
            to: view.recipient,
            currency: view.destinationCurrency,
            amount: fill.amount.toString(),
          });
          // A fill known from the solver's receipt only (the indexer has not confirmed it yet), and why the
          // indexer's view differs, if it does.
          if (!fill.provisional && !fill.disagreement) return entry;
          return {
            ...entry,
            metadata: {
              ...(fill.provisional ? { confirmedBy: "receipt" } : {}),
              ...(fill.disagreement ? { disagreement: fill.disagreement } : {}),
            },
          };
        }),
        ...revertedFillTx(view),
      ],
      appFees: { ...requestAppFees(view, route.deposited, route.currencyIn.decimals), currency: route.currencyIn },
      // Never null: clients read fees.actual.platform without a check (quoted until the fill, requestFees).
      fees: { ...requestFees(view, route), currency: route.currencyIn },
      feeSponsorship: {
        quoted: renameRelay(sponsorship?.quoted),
        actual: renameRelay(sponsorshipActual(view.status, sponsorship?.actual)),
        currency: route.currencyIn,
      },
      route: {
        includedSwapSources: [],
        includedOriginSwapSources: [],
        includedDestinationSwapSources: [],
        quoted: route.quoted,
        actual: route.actual,
      },
      quoteOraclePrice: quoteOraclePrice(view.quote, route.currencyIn, route.currencyOut),
      refundCurrencyData: refundCurrencyData(view, route, context.currencyOf),
      externalMetadata: {},
      ...(owner
        ? {
            referrer: view.referrer,
            platformFee: fees.relayerService ?? null,
            apiKeyName: view.apiKeyName,
          }
        : {}),
    },
    protocol: {
      orderId: view.orderId,
      hubType: "onchain",
      isWithdrawable: false,
      solver: {
        address: order.solver ?? null,
        protocolChainId: order.solverChainId ?? null,
        chainId: view.destinationChainId,
      },
      deposit: {
        origin: {
          amount: (route.deposited ?? view.amountIn).toString(),
          chainId: view.originChainId,
          currency: view.originCurrency,
          depositor: firstDeposit?.depositor ?? null,
          depository: context.depositoryOf(view.originChainId),
          onchainId: view.orderId,
          transactionId: firstDeposit?.txHash ?? null,
        },
      },
      settlement: {
        destination: {
          fills: view.fills.map((fill) => ({ chainId: fill.chainId, transactionId: fill.txHash })),
          refunds: view.refunds
            .filter((refund) => refund.txHash !== null)
            .map((refund) => ({ chainId: refund.chainId, transactionId: refund.txHash })),
        },
      },
    },
    createdAt: view.createdAt.toISOString(),
    updatedAt: view.updatedAt.toISOString(),
  };
}
