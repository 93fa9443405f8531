import { Hono } from "hono";
import { NotFoundError } from "../../domain/errors.js";

/** Endpoints the spec removed: a 404 that says what replaced them. */
export function removedRoutes(): Hono {
  const app = new Hono();
  for (const path of ["/requests/:requestId/signature", "/requests/:requestId/signature/v2"]) {
    app.get(path, () => {
      throw new NotFoundError(
        "NOT_FOUND",
        "the signature endpoints were removed on 2026-09-01: request the quote with includeProtocolData: true, recompute the order id from protocol.v2.orderData and check protocol.v2.orderSignature",
      );
    });
  }
  return app;
}
