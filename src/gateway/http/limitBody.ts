import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";

// The largest legitimate body is a quote with 16 destination calls; anything far beyond it is refused unread.
export const MAX_BODY_BYTES = 256 * 1024;

/**
 * Refuses a body over MAX_BODY_BYTES with 413. A body with a Content-Length is judged by its header alone (the HTTP
 * parser never hands a handler more bytes than that), so the node server does not build a WHATWG `Request` for it —
 * about 5 % of the API's CPU per quote; a chunked body is counted as it is read, by Hono's `bodyLimit`.
 */
export function limitBody(): MiddlewareHandler {
  const tooLarge: Parameters<typeof bodyLimit>[0]["onError"] = (c) =>
    // The rest of the body is never read: closing the connection keeps a client from reusing a socket the server
    // resets under it (the next request on it failed with ECONNRESET).
    c.json({ message: `request body exceeds ${MAX_BODY_BYTES} bytes`, errorCode: "INVALID_INPUT" }, 413, {
      Connection: "close",
    });
  const counted = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: tooLarge });
  return async (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    if (!lengthFramed(c)) return counted(c, next);
    return Number(c.req.header("content-length")) > MAX_BODY_BYTES ? tooLarge(c) : next();
  };
}

/** Whether the body's end is set by its Content-Length (not chunked). */
export function lengthFramed(c: Context): boolean {
  return c.req.header("content-length") !== undefined && c.req.header("transfer-encoding") === undefined;
}
