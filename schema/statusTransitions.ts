import type { RequestStatus } from "../src/domain/requestStatus.js";
import type { OutboxEvent } from "./statusEvents.js";

/** A status_events row as the metrics count it: the move, its chain pair and when the request's deposit landed. */
export type StatusTransition = {
  id: bigint;
  from: RequestStatus | null;
  to: RequestStatus;
  /** The event's fail reason, or the request's for a move to failure or refund that names none. */
  failReason: string | null;
  originChainId: number;
  destinationChainId: number;
  /** The block time (seconds) of the request's first deposit still on its chain; null before any. */
  depositedAt: number | null;
  createdAt: Date;
};

/** An outbox row, as the notifier read it, as the metrics count it (no second read of the outbox). */
export function statusTransitionOf(event: OutboxEvent): StatusTransition {
  return {
    id: event.id,
    from: event.fromStatus,
    to: event.status,
    // a refund's event names no reason of its own: the request's failure is what it was refunded for
    failReason:
      event.failReason ?? (event.status === "failure" || event.status === "refund" ? event.requestFailReason : null),
    originChainId: event.originChainId,
    destinationChainId: event.destinationChainId,
    depositedAt: event.depositedAt,
    createdAt: event.createdAt,
  };
}
