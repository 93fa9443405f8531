import type { RequestStatus } from "../domain/requestStatus.js";

/** The spec's `request.status.updated` body, as posted to webhooks and sent on the websocket feed. */
export type StatusUpdatedBody = {
  event: "request.status.updated";
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

export const STATUS_UPDATED_EVENT = "request.status.updated";
