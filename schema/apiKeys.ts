import type { Queryable } from "./queryable.js";

export type ApiKeyRecord = {
  id: string;
  name: string | null;
  integrator: string;
  elevated: boolean;
  /** Marked by the operator: may create, rename and revoke its integrator's keys and set their webhooks. */
  managesKeys: boolean;
  /** Marked by the operator (`crossfill sponsors allow`): may quote with subsidizeFees, drawing on its integrator. */
  sponsors: boolean;
  /** Set by the operator (`crossfill keys oracle-pricing`): quoted at the oracle rate less these bps; null: normally. */
  oraclePricingBps: bigint | null;
  createdAt: Date;
  revokedAt: Date | null;
};

type ApiKeyRow = {
  id: string;
  name: string | null;
  integrator: string;
  elevated: boolean;
  manages_keys: boolean;
  sponsors: boolean;
  oracle_pricing_bps: number | null;
  created_at: Date;
  revoked_at: Date | null;
};

const COLUMNS = "id, name, integrator, elevated, manages_keys, sponsors, oracle_pricing_bps, created_at, revoked_at";

const toRecord = (row: ApiKeyRow): ApiKeyRecord => ({
  id: row.id,
  name: row.name,
  integrator: row.integrator,
  elevated: row.elevated,
  managesKeys: row.manages_keys,
  sponsors: row.sponsors,
  oraclePricingBps: row.oracle_pricing_bps === null ? null : BigInt(row.oracle_pricing_bps),
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
});

export async function insertApiKey(
  db: Queryable,
  key: {
    id: string;
    name: string | null;
    integrator: string;
    elevated: boolean;
    managesKeys?: boolean;
    sponsors?: boolean;
    keyHash: Buffer;
    webhookSecretCipher: Buffer;
  },
): Promise<ApiKeyRecord> {
  const { rows } = await db.query<ApiKeyRow>(
    `INSERT INTO crossfill.api_keys (id, name, integrator, elevated, manages_keys, sponsors, key_hash, webhook_secret_cipher,
                                     webhook_secret_bound)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, true) RETURNING ${COLUMNS}`,
    [
      key.id,
      key.name,
      key.integrator,
      key.elevated,
      key.managesKeys ?? false,
      key.sponsors ?? false,
      key.keyHash,
      key.webhookSecretCipher,
    ],
  );
  return toRecord(rows[0]);
}

/** The key with this hash, active or not (the caller decides what a revoked key means). */
export async function findApiKeyByHash(db: Queryable, keyHash: Buffer): Promise<ApiKeyRecord | undefined> {
  const { rows } = await db.query<ApiKeyRow>(`SELECT ${COLUMNS} FROM crossfill.api_keys WHERE key_hash = $1`, [
    keyHash,
  ]);
  return rows[0] && toRecord(rows[0]);
}

/** Keys named by id or by hash of the key itself, as the `apiKey` listing parameter allows both. */
export async function findApiKeys(
  db: Queryable,
  ids: string[],
  hashes: Buffer[],
): Promise<Array<ApiKeyRecord & { keyHash: Buffer }>> {
  const { rows } = await db.query<ApiKeyRow & { key_hash: Buffer }>(
    `SELECT ${COLUMNS}, key_hash FROM crossfill.api_keys
      WHERE id = ANY($1::text[]) OR key_hash = ANY($2::bytea[])`,
    [ids, hashes],
  );
  return rows.map((row) => ({ ...toRecord(row), keyHash: row.key_hash }));
}

export async function listApiKeys(db: Queryable): Promise<ApiKeyRecord[]> {
  const { rows } = await db.query<ApiKeyRow>(`SELECT ${COLUMNS} FROM crossfill.api_keys ORDER BY created_at, id`);
  return rows.map(toRecord);
}

/** Revokes a key; false when no active key has this id (of this integrator, when one is named). */
export async function revokeApiKey(db: Queryable, id: string, integrator?: string): Promise<boolean> {
  const result = await db.query(
    `UPDATE crossfill.api_keys SET revoked_at = now()
      WHERE id = $1 AND revoked_at IS NULL AND ($2::text IS NULL OR integrator = $2)`,
    [id, integrator ?? null],
  );
  return result.rowCount === 1;
}

/** One integrator's keys, revoked ones included, oldest first (the dashboard's key list). */
export async function listIntegratorApiKeys(db: Queryable, integrator: string): Promise<ApiKeyRecord[]> {
  const { rows } = await db.query<ApiKeyRow>(
    `SELECT ${COLUMNS} FROM crossfill.api_keys WHERE integrator = $1 ORDER BY created_at, id`,
    [integrator],
  );
  return rows.map(toRecord);
}

/** Renames a key of the integrator; undefined when it has no such key. */
export async function renameApiKey(
  db: Queryable,
  key: { id: string; integrator: string; name: string },
): Promise<ApiKeyRecord | undefined> {
  const { rows } = await db.query<ApiKeyRow>(
    `UPDATE crossfill.api_keys SET name = $3 WHERE id = $1 AND integrator = $2 RETURNING ${COLUMNS}`,
    [key.id, key.integrator, key.name],
  );
  return rows[0] && toRecord(rows[0]);
}

/** Marks a key for management (the operator's `crossfill keys manage`); false when no such key. */
export async function setKeyManagement(db: Queryable, id: string, managesKeys: boolean): Promise<boolean> {
  const result = await db.query("UPDATE crossfill.api_keys SET manages_keys = $2 WHERE id = $1", [id, managesKeys]);
  return result.rowCount === 1;
}

/** Allows a key to sponsor fees, or stops it (the operator's `crossfill sponsors allow`); false when no such key. */
export async function setKeySponsoring(db: Queryable, id: string, sponsors: boolean): Promise<boolean> {
  const result = await db.query("UPDATE crossfill.api_keys SET sponsors = $2 WHERE id = $1", [id, sponsors]);
  return result.rowCount === 1;
}

/** Sets a key's fixed-bps oracle pricing, or ends it with null (the operator's only); false when no such key. */
export async function setKeyOraclePricing(db: Queryable, id: string, bps: bigint | null): Promise<boolean> {
  const result = await db.query("UPDATE crossfill.api_keys SET oracle_pricing_bps = $2 WHERE id = $1", [
    id,
    bps === null ? null : Number(bps),
  ]);
  return result.rowCount === 1;
}

/** Whether a key exists and is not revoked (long-lived subscriptions re-check theirs). */
export async function isApiKeyActive(db: Queryable, id: string): Promise<boolean> {
  const { rows } = await db.query("SELECT 1 FROM crossfill.api_keys WHERE id = $1 AND revoked_at IS NULL", [id]);
  return rows.length === 1;
}

/** The encrypted signing secret of an active key (for webhook delivery), and whether it is bound to the key's id. */
export async function getWebhookSecretCipher(
  db: Queryable,
  id: string,
): Promise<{ cipher: Buffer; bound: boolean } | undefined> {
  const { rows } = await db.query<{ webhook_secret_cipher: Buffer; webhook_secret_bound: boolean }>(
    "SELECT webhook_secret_cipher, webhook_secret_bound FROM crossfill.api_keys WHERE id = $1 AND revoked_at IS NULL",
    [id],
  );
  return rows[0] && { cipher: rows[0].webhook_secret_cipher, bound: rows[0].webhook_secret_bound };
}

/** Keys whose webhook secret was sealed before secrets were bound to their key id. */
export async function listUnboundWebhookSecrets(db: Queryable): Promise<Array<{ id: string; cipher: Buffer }>> {
  const { rows } = await db.query<{ id: string; webhook_secret_cipher: Buffer }>(
    "SELECT id, webhook_secret_cipher FROM crossfill.api_keys WHERE NOT webhook_secret_bound",
  );
  return rows.map((row) => ({ id: row.id, cipher: row.webhook_secret_cipher }));
}

/**
 * Replaces a key's unbound sealed secret with its bound one; false when another worker (or nothing) was there first:
 * the old value must still be in place, so two workers re-sealing at once write once.
 */
export async function bindWebhookSecret(db: Queryable, id: string, unbound: Buffer, bound: Buffer): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE crossfill.api_keys SET webhook_secret_cipher = $3, webhook_secret_bound = true
      WHERE id = $1 AND NOT webhook_secret_bound AND webhook_secret_cipher = $2`,
    [id, unbound, bound],
  );
  return rowCount === 1;
}
