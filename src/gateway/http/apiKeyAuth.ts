import type { MiddlewareHandler } from "hono";
import type pg from "pg";
import type { ApiKeyRecord } from "../../../schema/apiKeys.js";
import { UnauthorizedError } from "../../domain/errors.js";
import { authenticate } from "./authenticate.js";

export type AuthEnv = { Variables: { apiKey: ApiKeyRecord | undefined } };

/** Sets `apiKey` for the route; `required` answers 401 when the header is missing. */
export function apiKeyAuth(pool: pg.Pool, options: { required: boolean }): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const key = await authenticate(pool, c.req.header("x-api-key"));
    if (!key && options.required) throw new UnauthorizedError("x-api-key header is required");
    c.set("apiKey", key);
    await next();
  };
}
