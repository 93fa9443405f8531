import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findApiKeyByHash, getWebhookSecretCipher } from "../../schema/apiKeys.js";
import { migrate } from "../../schema/migrate.js";
import { createTestDatabase } from "../../test/support/testDatabase.js";
import { runKeysCommand } from "../roles/runKeysCommand.js";
import { createApiKey } from "./createApiKey.js";
import { hashApiKey } from "./hashApiKey.js";
import { openSecret } from "./secretBox.js";

describe("API keys in Postgres", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: pg.Pool;
  const serverKey = randomBytes(32);
  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    await migrate(pool);
  });
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  it("stores only the hash and a sealed signing secret", async () => {
    const created = await createApiKey(pool, serverKey, { name: "alpha", integrator: "acme", elevated: true });
    expect(created.key).toMatch(/^cf_[A-Za-z0-9_-]{43}$/);
    const { rows } = await pool.query("SELECT * FROM crossfill.api_keys WHERE id = $1", [created.id]);
    expect(JSON.stringify(rows[0])).not.toContain(created.key);
    expect((rows[0].key_hash as Buffer).equals(hashApiKey(created.key))).toBe(true);
    expect(await findApiKeyByHash(pool, hashApiKey(created.key))).toMatchObject({ id: created.id, name: "alpha", integrator: "acme", elevated: true, revokedAt: null });
    const cipher = await getWebhookSecretCipher(pool, created.id);
    expect(openSecret(serverKey, cipher!)).toBe(created.key);
  });

  it("defaults the integrator to the name", async () => {
    const created = await createApiKey(pool, serverKey, { name: "solo" });
    expect(created).toMatchObject({ integrator: "solo", elevated: false });
  });

  it("creates, lists and revokes through the keys command", async () => {
    const output = await runKeysCommand(pool, serverKey, ["create", "--name", "beta", "--integrator", "acme"]);
    const key = /key:\s+(cf_\S+)/.exec(output)![1];
    const id = /id:\s+(key_\S+)/.exec(output)![1];
    expect(await runKeysCommand(pool, serverKey, ["list"])).toMatch(new RegExp(`${id}\\tbeta\\tacme\\tstandard\\tactive`));
    expect(await runKeysCommand(pool, serverKey, ["list"])).not.toContain(key);
    expect(await runKeysCommand(pool, serverKey, ["revoke", id])).toBe(`revoked ${id}`);
    expect((await findApiKeyByHash(pool, hashApiKey(key)))?.revokedAt).toBeInstanceOf(Date);
    await expect(runKeysCommand(pool, serverKey, ["revoke", id])).rejects.toThrow(/no active key/);
    expect(await getWebhookSecretCipher(pool, id)).toBeUndefined();
    await expect(runKeysCommand(pool, serverKey, ["create"])).rejects.toThrow(/--name is required/);
    await expect(runKeysCommand(pool, serverKey, ["create", "--name", "x", "--bogus"])).rejects.toThrow();
  });
});
