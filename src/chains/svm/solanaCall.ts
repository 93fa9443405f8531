import { UpstreamFailureError, UpstreamTimeoutError } from "../../domain/errors.js";

/**
 * Runs one request to a Solana chain's RPC, turning its failures into the domain's retryable errors: a timeout is
 * REQUEST_TIMED_OUT, anything else (unreachable, a JSON-RPC error) RPC_HTTP_ERROR naming what was asked.
 */
export async function solanaCall<T>(chainId: number, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/timed? ?out|ETIMEDOUT|AbortError/i.test(message))
      throw new UpstreamTimeoutError(`chain ${chainId}'s Solana RPC did not answer ${what} in time`, error);
    throw new UpstreamFailureError(`chain ${chainId}'s Solana RPC failed ${what}: ${message}`, error);
  }
}
