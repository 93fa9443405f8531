import type { MiddlewareHandler } from "hono";

// hono cors's default list, so preflights answer as before.
const ALLOWED_METHODS = "GET,HEAD,PUT,POST,DELETE,PATCH,QUERY";

/**
 * CORS for any origin, as hono's `cors({ origin: "*" })` answers it, but with the headers prepared before the
 * handler runs (`c.header`) instead of set on `c.res` around it: touching `c.res` builds a full Response for every
 * request, which cost the node server its fast path (a bare JSON route answered 2–4× fewer requests per second).
 * A handler returning a Response of its own passes it through `c.newResponse` to keep these headers.
 */
export function corsHeaders(exposeHeaders: readonly string[]): MiddlewareHandler {
  const exposed = exposeHeaders.join(",");
  return async (c, next) => {
    c.header("Access-Control-Allow-Origin", "*");
    if (exposed) c.header("Access-Control-Expose-Headers", exposed);
    if (c.req.method === "OPTIONS") {
      c.header("Access-Control-Allow-Methods", ALLOWED_METHODS);
      const requested = c.req.header("Access-Control-Request-Headers");
      if (requested) {
        c.header(
          "Access-Control-Allow-Headers",
          requested
            .split(",")
            .map((header) => header.trim())
            .join(","),
        );
        c.header("Vary", "Access-Control-Request-Headers");
      }
      return c.body(null, 204);
    }
    await next();
  };
}
