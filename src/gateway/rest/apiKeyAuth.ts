import type { MiddlewareHandler } from "hono";
import type pg from "pg";
import { type ApiKeyRecord, findApiKeyByHash } from "../../../schema/apiKeys.js";
import { hashApiKey } from "../../apiKeys/hashApiKey.js";
import { UnauthorizedError } from "../../domain/errors.js";

export type AuthEnv = { Variables: { apiKey: ApiKeyRecord | undefined } };

/** The active key named by the `x-api-key` header; undefined without the header; 401 for an unknown or revoked key. */
export async function authenticate(pool: pg.Pool, header: string | undefined): Promise<ApiKeyRecord | undefined> {
  if (header === undefined || header === "") return undefined;
  const key = await findApiKeyByHash(pool, hashApiKey(header));
  if (!key) throw new UnauthorizedError("x-api-key is not a known API key");
  if (key.revokedAt) throw new UnauthorizedError("x-api-key has been revoked");
  return key;
}

/** Sets `apiKey` for the route; `required` answers 401 when the header is missing. */
export function apiKeyAuth(pool: pg.Pool, options: { required: boolean }): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const key = await authenticate(pool, c.req.header("x-api-key"));
    if (!key && options.required) throw new UnauthorizedError("x-api-key header is required");
    c.set("apiKey", key);
    await next();
  };
}
