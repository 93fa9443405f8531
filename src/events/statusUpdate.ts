import type { OutboxEvent } from "../../schema/statusEvents.js";
import { anyAddressKey } from "../chains/vmFamilies.js";
import { failReasonAtEdge, orNotApplicable } from "../domain/failReasons.js";
import type { RequestStatus } from "../domain/requestStatus.js";

/**
 * The one definition of a status update: the spec's `request.status.updated` body (webhooks, the `/ws` feed), what
 * pub/sub carries, and the keys subscribers (the feed, GraphQL subscriptions) register under.
 */
export const STATUS_UPDATED_EVENT = "request.status.updated";

/** The spec's `request.status.updated` body, as posted to webhooks and sent on the websocket feed. */
export type StatusUpdatedBody = {
  event: typeof STATUS_UPDATED_EVENT;
  timestamp: number;
  data: {
    status: RequestStatus;
    inTxHashes: string[];
    txHashes: string[];
    updatedAt: number;
    originChainId: number;
    destinationChainId: number;
    depositAddress: null | {
      address: string;
      depositAddressType: "open" | "strict";
      depositor: string | null;
      depositTxHash: string | null;
    };
    requestId: string;
    referrer: string | null;
    details: Record<string, unknown> | null;
    failReason: string;
    refundFailReason: string;
  };
};

/**
 * What travels over pub/sub for one status event: the body plus what subscribers route on (wallets and
 * chains), which the body does not carry. `eventId` is the status_events id, unique per change.
 */
export type StatusUpdate = {
  eventId: string;
  requestId: string;
  wallets: string[];
  chainIds: number[];
  /** The API key the request was quoted with (routing only: never sent to clients). */
  apiKeyId: string | null;
  /** That key's integrator: public channels show `body.data.referrer` only to a key of it (never sent itself). */
  apiKeyIntegrator: string | null;
  body: StatusUpdatedBody;
};

/**
 * The keys an update is delivered under, one per thing a subscriber follows. A wallet is keyed as its chain family
 * compares addresses (`anyAddressKey`: EVM's lower-cased, a case-sensitive family's as it is), by the publisher and
 * the subscriber alike.
 */
export const statusUpdateKey = {
  request: (requestId: string) => `id:${requestId.toLowerCase()}`,
  wallet: (walletKey: string) => `wallet:${walletKey}`,
  chain: (chainId: number) => `chain:${chainId}`,
  apiKey: (apiKeyId: string) => `key:${apiKeyId}`,
  integrator: (integrator: string) => `integrator:${integrator}`,
};

/**
 * The keys an update is delivered under: its request, each wallet (user, recipient), each chain (origin,
 * destination), the API key it was quoted with and that key's integrator. Subscribers register under one or more
 * of these.
 */
export function statusUpdateKeys(update: StatusUpdate): string[] {
  return [
    statusUpdateKey.request(update.requestId),
    ...update.wallets.map(statusUpdateKey.wallet),
    ...update.chainIds.map(statusUpdateKey.chain),
    ...(update.apiKeyId ? [statusUpdateKey.apiKey(update.apiKeyId)] : []),
    ...(update.apiKeyIntegrator ? [statusUpdateKey.integrator(update.apiKeyIntegrator)] : []),
  ];
}

/** The status update of one outbox event at `now` (ms): the body, plus what subscribers route on. */
export function toStatusUpdate(event: OutboxEvent, now: number): StatusUpdate {
  const failed = event.status === "failure" || event.status === "refund";
  return {
    eventId: event.id.toString(),
    requestId: event.requestId,
    wallets: [...new Set([event.user, event.recipient].map((wallet) => anyAddressKey(wallet) ?? wallet))],
    chainIds: [...new Set([event.originChainId, event.destinationChainId])],
    apiKeyId: event.apiKeyId,
    apiKeyIntegrator: event.apiKeyIntegrator,
    body: {
      event: STATUS_UPDATED_EVENT,
      timestamp: now,
      data: {
        status: event.status,
        inTxHashes: event.inTxHashes,
        txHashes: event.txHashes,
        updatedAt: event.createdAt.getTime(),
        originChainId: event.originChainId,
        destinationChainId: event.destinationChainId,
        depositAddress: event.depositAddress && {
          address: event.depositAddress.address,
          depositAddressType: event.depositAddress.type,
          depositor: event.depositAddress.depositor,
          depositTxHash: event.depositAddress.depositTxHash,
        },
        requestId: event.requestId,
        referrer: event.referrer,
        details: event.details,
        failReason: failReasonAtEdge(event.status, event.failReason ?? event.requestFailReason),
        refundFailReason: orNotApplicable(event.refundFailReason ?? (failed ? event.requestRefundFailReason : null)),
      },
    },
  };
}
