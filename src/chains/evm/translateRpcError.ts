import { BaseError } from "viem";
import { UpstreamFailureError, UpstreamTimeoutError, isCrossfillError } from "../../domain/errors.js";
import { findRevert } from "./findRevert.js";

const named = (error: unknown, names: readonly string[]) =>
  error instanceof BaseError && error.walk((e) => names.includes((e as { name?: string }).name ?? "")) !== null;

/**
 * A node's failure as the domain's retryable errors: a timeout (or an aborted request) is REQUEST_TIMED_OUT, any
 * other transport or JSON-RPC failure RPC_HTTP_ERROR. Reverts and everything else pass through unchanged.
 */
export function translateRpcError(error: unknown, chainId: number): unknown {
  if (isCrossfillError(error) || findRevert(error)) return error;
  const detail = error instanceof BaseError ? error.shortMessage : (error as Error)?.message;
  if (named(error, ["TimeoutError"]) || (error as { name?: string })?.name === "AbortError")
    return new UpstreamTimeoutError(`chain ${chainId}'s node did not answer in time`, error);
  if (named(error, ["HttpRequestError", "RpcRequestError", "WebSocketRequestError", "SocketClosedError"]))
    return new UpstreamFailureError(`chain ${chainId}'s node failed: ${detail}`, error);
  return error;
}
