import { contextCacheSymbol } from "@pothos/core";
import { depositsOfRequests, fillsOfRequests } from "../../../../schema/requestChainFacts.js";
import { type OwnedRequest, requestsByIds } from "../../../../schema/requestsByIds.js";
import { refundsOfRequests } from "../../../../schema/refunds.js";
import { statusEventsOfRequests } from "../../../../schema/statusEvents.js";
import { InvalidInputError } from "../../../domain/errors.js";
import type { StatusUpdate } from "../../../events/statusUpdate.js";
import { builder } from "../builder.js";
import { requireApiKey } from "../graphqlContext.js";
import { statusUpdateStream } from "../statusUpdateStream.js";
import { ChainRef } from "./chain.js";
import { CurrencyRef } from "./currency.js";
import { DepositRef } from "./deposit.js";
import { FillRef } from "./fill.js";
import { FailedTransactionRef } from "./failedTransaction.js";
import { FeesRef, QuoteDetailsRef } from "./quote.js";
import { RefundRef } from "./refund.js";
import { RequestStatusEnum } from "./requestStatus.js";
import { StatusEventRef } from "./statusEvent.js";

const REQUEST_ID = /^0x[0-9a-f]{64}$/;
const WALLET = /^0x[0-9a-f]{40}$/;
const MAX_IDS = 50;

function requestId(value: string, name = "id"): string {
  const id = value.toLowerCase();
  if (!REQUEST_ID.test(id)) throw new InvalidInputError("INVALID_INPUT", `${name} must be a 32-byte hex request id`);
  return id;
}

type StoredQuote = { fees?: unknown; details?: unknown };

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
    originChain: t.field({ type: ChainRef, nullable: true, resolve: (request, _, context) => context.registry.chain(request.originChainId) ?? null }),
    destinationChain: t.field({
      type: ChainRef,
      nullable: true,
      resolve: (request, _, context) => context.registry.chain(request.destinationChainId) ?? null,
    }),
    currencyIn: t.field({
      type: CurrencyRef,
      nullable: true,
      resolve: (request, _, context) => context.registry.currency(request.originChainId, request.originCurrency) ?? null,
    }),
    currencyOut: t.field({
      type: CurrencyRef,
      nullable: true,
      resolve: (request, _, context) => context.registry.currency(request.destinationChainId, request.destinationCurrency) ?? null,
    }),
    amountIn: t.string({ description: "Quoted deposit, smallest unit.", resolve: (request) => request.amountIn.toString() }),
    amountOut: t.string({ description: "Quoted output, smallest unit.", resolve: (request) => request.amountOut.toString() }),
    minimumAmountOut: t.string({ resolve: (request) => request.minimumAmountOut.toString() }),
    slippageTolerance: t.string({ description: "Basis points.", resolve: (request) => request.slippageBps.toString() }),
    deadline: t.field({ type: "DateTime", resolve: (request) => request.deadline }),
    referrer: t.string({
      nullable: true,
      description: "The quote's referrer: only for a key of the integrator whose key quoted it (as data.referrer of GET /requests/v3), else null.",
      resolve: async (request, _, context) => {
        const key = await context.apiKey();
        return key !== undefined && request.apiKeyIntegrator !== null && key.integrator === request.apiKeyIntegrator ? request.referrer : null;
      },
    }),
    failReason: t.exposeString("failReason", { nullable: true }),
    refundFailReason: t.exposeString("refundFailReason", { nullable: true }),
    failedTransaction: t.field({ type: FailedTransactionRef, nullable: true, resolve: (request) => request.failedTransaction }),
    quotedFees: t.field({ type: FeesRef, nullable: true, resolve: (request) => ((request.quote as StoredQuote)?.fees as never) ?? null }),
    quotedDetails: t.field({ type: QuoteDetailsRef, nullable: true, resolve: (request) => ((request.quote as StoredQuote)?.details as never) ?? null }),
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
    status: t.field({ type: RequestStatusEnum, description: "The status this change moved to.", resolve: (update) => update.body.data.status }),
    updatedAt: t.field({ type: "DateTime", resolve: (update) => new Date(update.body.data.updatedAt) }),
    request: t.field({ type: RequestRef, resolve: (update) => update.requestId }),
  }),
});

builder.subscriptionFields((t) => ({
  requestUpdated: t.field({
    type: RequestUpdateRef,
    description:
      "Every later status change of one request (id), of a wallet's requests as user or recipient (wallet), of a chain's (chainId), or of every request quoted with the caller's API key (myKey: true). Give exactly one.",
    args: { id: t.arg.string(), wallet: t.arg.string(), chainId: t.arg.int(), myKey: t.arg.boolean() },
    subscribe: async (_, args, context) => {
      const given = [args.id, args.wallet, args.chainId, args.myKey || undefined].filter((value) => value !== null && value !== undefined);
      if (given.length !== 1) throw new InvalidInputError("INVALID_INPUT", "give exactly one of id, wallet, chainId, myKey: true");
      if (args.myKey) {
        const key = await requireApiKey(context);
        return statusUpdateStream(context.statusUpdates, `key:${key.id}`);
      }
      if (args.id) {
        const id = requestId(args.id);
        return statusUpdateStream(context.statusUpdates, `id:${id}`);
      }
      if (args.wallet) {
        const wallet = args.wallet.toLowerCase();
        if (!WALLET.test(wallet)) throw new InvalidInputError("INVALID_INPUT", "wallet must be a 20-byte hex address");
        return statusUpdateStream(context.statusUpdates, `wallet:${wallet}`);
      }
      return statusUpdateStream(context.statusUpdates, `chain:${args.chainId}`);
    },
    // A subscription keeps one context for its life, so its loaders would serve what an earlier update cached.
    // Each update gets the loader scope shared by all its subscribers instead: current, and read once.
    resolve: (update, _, context) => {
      (context as unknown as Record<symbol, unknown>)[contextCacheSymbol] = context.updateScope(update.eventId);
      return update;
    },
  }),
}));
