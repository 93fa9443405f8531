import { randomBytes } from "node:crypto";
import { type ApiKeyRecord, insertApiKey } from "../../schema/apiKeys.js";
import type { Queryable } from "../../schema/queryable.js";
import { hashApiKey } from "./hashApiKey.js";
import { sealSecret } from "./secretBox.js";

export type CreatedApiKey = ApiKeyRecord & { key: string };

/**
 * A new key: `cf_` + 32 random bytes (base64url). Only its hash is searchable; the key itself is kept sealed
 * because webhooks are signed with it. The plain key is returned once, here.
 */
export async function createApiKey(
  db: Queryable,
  serverKey: Buffer,
  options: { name?: string; integrator?: string; elevated?: boolean; managesKeys?: boolean; sponsors?: boolean },
): Promise<CreatedApiKey> {
  const key = `cf_${randomBytes(32).toString("base64url")}`;
  const name = options.name?.trim() || null;
  const integrator = options.integrator?.trim() || name;
  if (!integrator) throw new Error("a key needs a name or an integrator");
  const id = `key_${randomBytes(9).toString("base64url")}`;
  const record = await insertApiKey(db, {
    id,
    name,
    integrator,
    elevated: options.elevated ?? false,
    managesKeys: options.managesKeys ?? false,
    sponsors: options.sponsors ?? false,
    keyHash: hashApiKey(key),
    webhookSecretCipher: sealSecret(serverKey, key, id),
  });
  return { ...record, key };
}
