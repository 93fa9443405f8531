import { Hono } from "hono";
import type pg from "pg";
import { getStatusRecord } from "../../../schema/statusRecord.js";
import { InvalidInputError, NotFoundError } from "../../domain/errors.js";
import { failReasonAtEdge, orNotApplicable } from "../../domain/failReasons.js";

/** GET /intents/status/v3 (and the older /intents/status the official client rewrites to it). */
export function statusRoutes(deps: { pool: pg.Pool }): Hono {
  const app = new Hono();
  for (const path of ["/intents/status/v3", "/intents/status"]) {
    app.get(path, async (c) => {
      const requestId = c.req.query("requestId");
      if (!requestId) throw new InvalidInputError("INVALID_INPUT", "requestId is required");
      if (!/^0x[0-9a-fA-F]{64}$/.test(requestId))
        throw new InvalidInputError("INVALID_INPUT", "requestId must be a 32-byte hex string");
      const record = await getStatusRecord(deps.pool, requestId.toLowerCase());
      if (!record) throw new NotFoundError("REQUEST_NOT_FOUND", `request ${requestId} was not found`);
      return c.json({
        status: record.status,
        inTxHashes: record.inTxHashes,
        txHashes: record.txHashes,
        updatedAt: record.updatedAt.getTime(),
        originChainId: record.originChainId,
        destinationChainId: record.destinationChainId,
        failReason: failReasonAtEdge(record.status, record.failReason),
        refundFailReason: orNotApplicable(record.refundFailReason),
        details: record.failureDetails,
      });
    });
  }
  return app;
}
