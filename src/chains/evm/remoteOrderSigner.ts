import { TransientError } from "../../domain/errors.js";
import type { OrderData } from "../../domain/order.js";
import type { OrderSigner } from "./orderSigner.js";

/**
 * The gateway's order signer: the worker's signer service (`orderSignerRoutes`) asked over HTTP with the shared
 * token, so the internet-facing process holds the solver's address and no key. A signer that does not answer or
 * refuses fails the quote as 503 (retryable): the gateway cannot make the signature, and the client did nothing wrong.
 */
export function remoteOrderSigner(options: {
  url: string;
  token: string;
  address: string;
  timeoutMs?: number;
}): OrderSigner {
  const endpoint = new URL("order-signatures", options.url.endsWith("/") ? options.url : `${options.url}/`);
  const fail = (detail: string, cause?: unknown) =>
    new TransientError("SERVICE_UNAVAILABLE", `the order signer did not sign the order: ${detail}`, cause);
  return {
    address: options.address,
    async signOrder(order: OrderData) {
      let response: Response;
      try {
        response = await fetch(endpoint, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${options.token}` },
          body: JSON.stringify({ order }),
          signal: AbortSignal.timeout(options.timeoutMs ?? 5_000),
        });
      } catch (error) {
        throw fail((error as Error).name === "TimeoutError" ? "no answer in time" : "it does not answer", error);
      }
      const body = (await response.json().catch(() => ({}))) as { signature?: unknown; message?: unknown };
      if (!response.ok || typeof body.signature !== "string")
        throw fail(`${response.status} ${typeof body.message === "string" ? body.message : ""}`.trim());
      return body.signature;
    },
  };
}
