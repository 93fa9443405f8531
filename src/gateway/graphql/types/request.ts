import { contextCacheSymbol, createContextCache } from "@pothos/core";
import DataLoader from "dataloader";
import { depositsOfRequests, fillsOfRequests } from "../../../../schema/requestChainFacts.js";
import { isApiKeyActive } from "../../../../schema/apiKeys.js";
import { type OwnedRequest, requestsByIds } from "../../../../schema/requestsByIds.js";
import { refundsOfRequests } from "../../../../schema/refunds.js";
import type { RequestView } from "../../../../schema/requestsQuery.js";
import { statusEventsOfRequests } from "../../../../schema/statusEvents.js";
import { anyAddressKey } from "../../../chains/vmFamilies.js";
import { InvalidInputError } from "../../../domain/errors.js";
import { type StatusUpdate, statusUpdateKey } from "../../../events/statusUpdate.js";
import { buildRequestRecordV3 } from "../../../requests/buildRequestRecordV3.js";
import { requestViewsByIds } from "../../../../schema/requestsQuery.js";
import { recordLookups } from "../../../requests/recordLookups.js";
import { builder } from "../builder.js";
import { AmountRef } from "./amount.js";
import { type GraphqlContext, requireApiKey } from "../graphqlContext.js";
import { statusUpdateStream } from "../statusUpdateStream.js";
import { ChainRef } from "./chainRef.js";
import { CurrencyRef } from "./currency.js";
import { DepositRef } from "./deposit.js";
import { FillRef } from "./fill.js";
import { FailedTransactionRef } from "./failedTransaction.js";
import { RequestFeeSponsorshipRef } from "./feeSponsorship.js";
import { FeesRef, QuoteDetailsRef } from "./quote.js";
import { QuoteOraclePriceRef } from "./quoteOraclePrice.js";
import { RefundRef } from "./refund.js";
import { RequestAppFeesRef } from "./requestAppFees.js";
import { RequestFeesRef } from "./requestFees.js";
import { RequestRouteRef } from "./requestRoute.js";
import { RequestStatusEnum } from "./requestStatus.js";
import { StatusEventRef } from "./statusEvent.js";

const REQUEST_ID = /^0x[0-9a-f]{64}$/;
const MAX_IDS = 50;

function requestId(value: string, name = "id"): string {
  const id = value.toLowerCase();
  if (!REQUEST_ID.test(id)) throw new InvalidInputError("INVALID_INPUT", `${name} must be a 32-byte hex request id`);
  return id;
}

type StoredQuote = { fees?: unknown; details?: unknown };
type RecordV3 = ReturnType<typeof buildRequestRecordV3>;

/** Requests hydrated as GET /requests/v3 hydrates them (deposits, fills, refunds…): one query per batch of ids. */
const requestViews = createContextCache(
  (context: GraphqlContext) =>
    new DataLoader<string, RequestView | null>(async (ids) => {
      const byId = new Map((await requestViewsByIds(context.db, ids)).map((view) => [view.id, view]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
);

/** A `requests` page already holds its views: its nodes' v3 fields then cost no query. */
export function primeRequestViews(context: GraphqlContext, views: RequestView[]): void {
  const loader = requestViews(context);
  for (const view of views) loader.prime(view.id, view);
}

const records = new WeakMap<RequestView, RecordV3>();

/** The request's GET /requests/v3 record (built once per loaded view), without the authenticated-only fields. */
async function recordOf(id: string, context: GraphqlContext): Promise<RecordV3> {
  const view = await viewOf(id, context);
  let record = records.get(view);
  if (!record) {
    record = buildRequestRecordV3(view, { ...recordLookups(context.registry), includeAuthenticatedData: false });
    records.set(view, record);
  }
  return record;
}

/** The request's loaded view (deposits, fills, refunds…), shared with its v3 record. */
async function viewOf(id: string, context: GraphqlContext): Promise<RequestView> {
  const view = await requestViews(context).load(id);
  if (!view) throw new Error(`request ${id} vanished while it was read`);
  return view;
}

/** A resolver of one part of the request's v3 record. */
const fromRecord =
  <T>(pick: (record: RecordV3) => T) =>
  async (request: { id: string }, _args: unknown, context: GraphqlContext): Promise<T> =>
    pick(await recordOf(request.id, context));

type DepositAddressShape = NonNullable<RecordV3["depositAddress"]>;

const DepositAddressRef = builder.objectRef<DepositAddressShape>("DepositAddress").implement({
  description: "The address a deposit-address request is paid to (Bitcoin origin), as GET /requests/v3 depositAddress.",
  fields: (t) => ({
    address: t.exposeString("address"),
    type: t.exposeString("type", { description: "open or strict." }),
    depositor: t.exposeString("depositor", { nullable: true, description: "Who paid it; null until seen." }),
    depositTxHash: t.exposeString("depositTxHash", {
      nullable: true,
      description: "The origin-chain hash of the transfer into the address; null until seen.",
    }),
  }),
});

/** A request, loaded in batches: every Request in one operation costs one query, whatever the nesting. */
export const RequestRef = builder.loadableObject("Request", {
  description: "A quoted intent and what happened to it.",
  load: (ids: string[], context) => requestsByIds(context.db, ids),
  sort: (request: OwnedRequest) => request.id,
  fields: (t) => ({
    id: t.exposeString("id"),
    orderId: t.exposeString("orderId", { description: "protocol.v2.orderId: what the deposit commits to." }),
    status: t.field({ type: RequestStatusEnum, resolve: (request) => request.status }),
    requestType: t.exposeString("requestType"),
    tradeType: t.exposeString("tradeType"),
    user: t.exposeString("user"),
    sender: t.exposeString("user"),
    recipient: t.exposeString("recipient"),
    refundTo: t.exposeString("refundTo", { nullable: true }),
    originChainId: t.exposeInt("originChainId"),
    destinationChainId: t.exposeInt("destinationChainId"),
    originChain: t.field({
      type: ChainRef,
      nullable: true,
      resolve: (request, _, context) => context.registry.chain(request.originChainId) ?? null,
    }),
    destinationChain: t.field({
      type: ChainRef,
      nullable: true,
      resolve: (request, _, context) => context.registry.chain(request.destinationChainId) ?? null,
    }),
    currencyIn: t.field({
      type: CurrencyRef,
      nullable: true,
      resolve: (request, _, context) =>
        context.registry.currency(request.originChainId, request.originCurrency) ?? null,
    }),
    currencyOut: t.field({
      type: CurrencyRef,
      nullable: true,
      resolve: (request, _, context) =>
        context.registry.currency(request.destinationChainId, request.destinationCurrency) ?? null,
    }),
    amountIn: t.string({
      description: "Quoted deposit, smallest unit.",
      resolve: (request) => request.amountIn.toString(),
    }),
    amountOut: t.string({
      description: "Quoted output, smallest unit.",
      resolve: (request) => request.amountOut.toString(),
    }),
    minimumAmountOut: t.string({ resolve: (request) => request.minimumAmountOut.toString() }),
    slippageTolerance: t.string({ description: "Basis points.", resolve: (request) => request.slippageBps.toString() }),
    deadline: t.field({ type: "DateTime", resolve: (request) => request.deadline }),
    referrer: t.string({
      nullable: true,
      description:
        "The quote's referrer: only for a key of the integrator whose key quoted it (as data.referrer of GET /requests/v3), else null.",
      resolve: async (request, _, context) => {
        const key = await context.apiKey();
        return key !== undefined && request.apiKeyIntegrator !== null && key.integrator === request.apiKeyIntegrator
          ? request.referrer
          : null;
      },
    }),
    failReason: t.exposeString("failReason", { nullable: true }),
    refundFailReason: t.exposeString("refundFailReason", { nullable: true }),
    failedTransaction: t.field({
      type: FailedTransactionRef,
      nullable: true,
      resolve: (request) => request.failedTransaction,
    }),
    quotedFees: t.field({
      type: FeesRef,
      nullable: true,
      resolve: (request) => ((request.quote as StoredQuote)?.fees as never) ?? null,
    }),
    quotedDetails: t.field({
      type: QuoteDetailsRef,
      nullable: true,
      resolve: (request) => ((request.quote as StoredQuote)?.details as never) ?? null,
    }),
    features: t.stringList({
      description:
        "As GET /requests/v3: app_fees, deposit_address, sponsored (gasless_execution, fast_fill, gas_top_up are not offered).",
      resolve: fromRecord((record) => record.features),
    }),
    depositAddress: t.field({
      type: DepositAddressRef,
      nullable: true,
      resolve: fromRecord((record) => record.depositAddress),
    }),
    supersededByRequestId: t.string({
      nullable: true,
      description: "For a regenerated deposit-address request, the requestId that owns the sweep and fill.",
      resolve: fromRecord((record) => record.supersededByRequestId),
    }),
    parentRequestId: t.string({
      nullable: true,
      description:
        "For a child request (a further payment of an already paid quote, refunded as DOUBLE_SPEND), the request whose quote it paid; null otherwise.",
      resolve: async (request, _, context) => (await viewOf(request.id, context)).parentRequestId,
    }),
    timeEstimate: t.int({
      description: "Seconds, as quoted.",
      resolve: fromRecord((record) => record.data.timeEstimate),
    }),
    // data.fees, data.appFees, data.feeSponsorship (the service's component named platform) and data.route of GET /requests/v3.
    fees: t.field({ type: RequestFeesRef, resolve: fromRecord((record) => record.data.fees) }),
    refundCurrencyData: t.field({
      type: AmountRef,
      nullable: true,
      description: "data.refundCurrencyData of GET /requests/v3: what the refund returned, null until it did.",
      resolve: fromRecord((record) => record.data.refundCurrencyData),
    }),
    quoteOraclePrice: t.field({
      type: QuoteOraclePriceRef,
      nullable: true,
      description:
        "data.quoteOraclePrice of GET /requests/v3: null unless the request was quoted with fixed-bps oracle pricing.",
      resolve: fromRecord((record) => record.data.quoteOraclePrice),
    }),
    appFees: t.field({ type: RequestAppFeesRef, resolve: fromRecord((record) => record.data.appFees) }),
    feeSponsorship: t.field({
      type: RequestFeeSponsorshipRef,
      resolve: fromRecord((record) => record.data.feeSponsorship),
    }),
    route: t.field({ type: RequestRouteRef, resolve: fromRecord((record) => record.data.route) }),
    createdAt: t.field({ type: "DateTime", resolve: (request) => request.createdAt }),
    updatedAt: t.field({ type: "DateTime", resolve: (request) => request.updatedAt }),
    deposits: t.loadableList({
      type: DepositRef,
      load: (ids: string[], context) => depositsOfRequests(context.db, ids),
      resolve: (request) => request.id,
    }),
    fills: t.loadableList({
      type: FillRef,
      load: (ids: string[], context) => fillsOfRequests(context.db, ids),
      resolve: (request) => request.id,
    }),
    refunds: t.loadableList({
      type: RefundRef,
      description: "Refunds of this request's deposits (a failed fill's, and any duplicate deposit's), oldest first.",
      load: (ids: string[], context) => refundsOfRequests(context.db, ids),
      resolve: (request) => request.id,
    }),
    statusEvents: t.loadableList({
      type: StatusEventRef,
      description: "The timeline: every status change, oldest first.",
      load: (ids: string[], context) => statusEventsOfRequests(context.db, ids),
      resolve: (request) => request.id,
    }),
  }),
});

builder.queryFields((t) => ({
  request: t.field({
    type: RequestRef,
    nullable: true,
    args: { id: t.arg.string({ required: true }) },
    resolve: (_, args) => requestId(args.id),
  }),
  requestsByIds: t.field({
    type: [RequestRef],
    nullable: { list: false, items: true },
    description: `Up to ${MAX_IDS} requests by id, in the order given; null for an unknown id.`,
    args: { ids: t.arg.stringList({ required: true }) },
    resolve: (_, args) => {
      if (args.ids.length > MAX_IDS) throw new InvalidInputError("INVALID_INPUT", `at most ${MAX_IDS} ids`);
      return args.ids.map((id, index) => requestId(id, `ids[${index}]`));
    },
  }),
}));

/** One status change pushed to a subscriber; `request` is re-read when the update is delivered. */
const RequestUpdateRef = builder.objectRef<StatusUpdate>("RequestUpdate").implement({
  fields: (t) => ({
    eventId: t.exposeID("eventId", { description: "Unique per status change." }),
    status: t.field({
      type: RequestStatusEnum,
      description: "The status this change moved to.",
      resolve: (update) => update.body.data.status,
    }),
    updatedAt: t.field({ type: "DateTime", resolve: (update) => new Date(update.body.data.updatedAt) }),
    request: t.field({ type: RequestRef, resolve: (update) => update.requestId }),
  }),
});

builder.subscriptionFields((t) => ({
  requestUpdated: t.field({
    type: RequestUpdateRef,
    description:
      "Every later status change of one request (id), of a wallet's requests as user or recipient (wallet), of a chain's (chainId), of every request quoted with the caller's API key (myKey: true), or with any key of the caller's integrator, revoked ones included (myIntegrator: true; new requests arrive as their `waiting`). Give exactly one.",
    args: {
      id: t.arg.string(),
      wallet: t.arg.string(),
      chainId: t.arg.int(),
      myKey: t.arg.boolean(),
      myIntegrator: t.arg.boolean(),
    },
    subscribe: async (_, args, context) => {
      const given = [
        args.id,
        args.wallet,
        args.chainId,
        args.myKey || undefined,
        args.myIntegrator || undefined,
      ].filter((value) => value !== null && value !== undefined);
      if (given.length !== 1)
        throw new InvalidInputError(
          "INVALID_INPUT",
          "give exactly one of id, wallet, chainId, myKey: true, myIntegrator: true",
        );
      if (args.myKey || args.myIntegrator) {
        const key = await requireApiKey(context);
        // The caller's key decides the scope; the stream ends once that key is revoked.
        const scope = args.myKey ? statusUpdateKey.apiKey(key.id) : statusUpdateKey.integrator(key.integrator);
        return statusUpdateStream(context.statusUpdates, scope, {
          stillAllowed: () => isApiKeyActive(context.db, key.id),
          recheckMs: context.keyRecheckMs ?? 30_000,
        });
      }
      if (args.id) {
        const id = requestId(args.id);
        return statusUpdateStream(context.statusUpdates, statusUpdateKey.request(id));
      }
      if (args.wallet) {
        const wallet = anyAddressKey(args.wallet);
        if (wallet === undefined) throw new InvalidInputError("INVALID_INPUT", "wallet must be an address");
        return statusUpdateStream(context.statusUpdates, statusUpdateKey.wallet(wallet));
      }
      return statusUpdateStream(context.statusUpdates, statusUpdateKey.chain(args.chainId!));
    },
    // A subscription keeps one context for its life, so its loaders would serve what an earlier update cached.
    // Each update gets the loader scope shared by all its subscribers instead: current, and read once.
    resolve: (update, _, context) => {
      (context as unknown as Record<symbol, unknown>)[contextCacheSymbol] = context.updateScope(update.eventId);
      return update;
    },
  }),
}));
