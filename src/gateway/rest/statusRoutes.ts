import { Hono } from "hono";
import type pg from "pg";
import type { StatusRecord } from "../../../schema/statusRecord.js";
import { InvalidInputError, NotFoundError } from "../../domain/errors.js";
import { failReasonAtEdge, orNotApplicable } from "../../domain/failReasons.js";
import { type AuthEnv, apiKeyAuth } from "../http/apiKeyAuth.js";
import type { RateLimitDeps } from "../http/hitRateLimits.js";
import { rateLimit } from "../http/rateLimit.js";
import type { RouteLimit } from "../http/routeLimits.js";

const statusBody = (record: StatusRecord) =>
  JSON.stringify({
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

/**
 * GET /intents/status/v3 (and the older /intents/status the official client rewrites to it). `lookup` is the
 * gateway's status cache, or a Postgres read per call; a cached record is serialised once. Both paths spend one
 * rate limit (a key, when sent, is looked up and counted instead of the address).
 */
export function statusRoutes(
  deps: RateLimitDeps & {
    pool: pg.Pool;
    limit: RouteLimit;
    lookup: (requestId: string) => Promise<StatusRecord | undefined>;
  },
): Hono<AuthEnv> {
  const bodies = new WeakMap<StatusRecord, string>();
  const app = new Hono<AuthEnv>();
  const limited = rateLimit(deps, deps.limit);
  for (const path of ["/intents/status/v3", "/intents/status"]) {
    app.get(path, apiKeyAuth(deps.pool, { required: false }), limited, async (c) => {
      const requestId = c.req.query("requestId");
      if (!requestId) throw new InvalidInputError("INVALID_INPUT", "requestId is required");
      if (!/^0x[0-9a-fA-F]{64}$/.test(requestId))
        throw new InvalidInputError("INVALID_INPUT", "requestId must be a 32-byte hex string");
      const record = await deps.lookup(requestId.toLowerCase());
      if (!record) throw new NotFoundError("REQUEST_NOT_FOUND", `request ${requestId} was not found`);
      let body = bodies.get(record);
      if (body === undefined) bodies.set(record, (body = statusBody(record)));
      return c.body(body, 200, { "Content-Type": "application/json" });
    });
  }
  return app;
}
