import {
  BaseError,
  HttpRequestError,
  RpcError,
  RpcRequestError,
  SocketClosedError,
  TimeoutError,
  WebSocketRequestError,
} from "viem";
import { UpstreamFailureError, UpstreamTimeoutError, isCrossfillError } from "../../domain/errors.js";
import { findRevert } from "./findRevert.js";

const within = (error: unknown, found: (e: unknown) => boolean) =>
  found(error) || (error instanceof BaseError && error.walk(found) !== null);

/**
 * A node's failure as the domain's retryable errors: a timeout (or an aborted request) is REQUEST_TIMED_OUT, any
 * other transport or JSON-RPC failure RPC_HTTP_ERROR. Reverts and everything else pass through unchanged.
 */
export function translateRpcError(error: unknown, chainId: number): unknown {
  if (isCrossfillError(error) || findRevert(error)) return error;
  const detail = error instanceof BaseError ? error.shortMessage : (error as Error)?.message;
  // An aborted fetch rejects with a DOMException whose standard name is its kind.
  const aborted = error instanceof DOMException && error.name === "AbortError";
  if (aborted || within(error, (e) => e instanceof TimeoutError))
    return new UpstreamTimeoutError(`chain ${chainId}'s node did not answer in time`, error);
  const failed = (e: unknown) =>
    e instanceof HttpRequestError ||
    e instanceof RpcRequestError ||
    e instanceof RpcError ||
    e instanceof WebSocketRequestError ||
    e instanceof SocketClosedError;
  if (within(error, failed)) return new UpstreamFailureError(`chain ${chainId}'s node failed: ${detail}`, error);
  return error;
}
