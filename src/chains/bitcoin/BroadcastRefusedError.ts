import { UpstreamFailureError } from "../../domain/errors.js";

/**
 * The node itself refused a transaction (Esplora answered POST /tx with a 4xx and the node's reason): the only
 * broadcast failure that says something about the transaction. A timeout, a network error or a 5xx says nothing — the
 * transaction may have reached the node, or other nodes, all the same — and is a plain UpstreamFailureError.
 */
export class BroadcastRefusedError extends UpstreamFailureError {
  override name = "BroadcastRefusedError";
}
