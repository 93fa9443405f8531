import type pg from "pg";
import { type ApiKeyRecord, findApiKeyByHash } from "../../../schema/apiKeys.js";
import { hashApiKey } from "../../apiKeys/hashApiKey.js";
import { UnauthorizedError } from "../../domain/errors.js";

/** The active key named by the `x-api-key` header; undefined without the header; 401 for an unknown or revoked key. */
export async function authenticate(pool: pg.Pool, header: string | undefined): Promise<ApiKeyRecord | undefined> {
  if (header === undefined || header === "") return undefined;
  const key = await findApiKeyByHash(pool, hashApiKey(header));
  if (!key) throw new UnauthorizedError("x-api-key is not a known API key");
  if (key.revokedAt) throw new UnauthorizedError("x-api-key has been revoked");
  return key;
}
