import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { findApiKeyByHash, getWebhookSecretCipher } from "../../schema/apiKeys.js";
import { useMigratedDatabase } from "../../test/support/useMigratedDatabase.js";
import { runKeysCommand } from "../../apps/runKeysCommand.js";
import { createApiKey } from "./createApiKey.js";
import { hashApiKey } from "./hashApiKey.js";
import { openSecret } from "./secretBox.js";

describe("API keys in Postgres", () => {
  const database = useMigratedDatabase({ max: 2 });
  const serverKey = randomBytes(32);

  it("stores only the hash and a sealed signing secret", async () => {
    const created = await createApiKey(database.pool, serverKey, { name: "alpha", integrator: "acme", elevated: true });
    expect(created.key).toMatch(/^cf_[A-Za-z0-9_-]{43}$/);
    const { rows } = await database.pool.query("SELECT * FROM crossfill.api_keys WHERE id = $1", [created.id]);
    expect(JSON.stringify(rows[0])).not.toContain(created.key);
    expect((rows[0].key_hash as Buffer).equals(hashApiKey(created.key))).toBe(true);
    expect(await findApiKeyByHash(database.pool, hashApiKey(created.key))).toMatchObject({
      id: created.id,
      name: "alpha",
      integrator: "acme",
      elevated: true,
      revokedAt: null,
    });
    const sealed = await getWebhookSecretCipher(database.pool, created.id);
    expect(sealed!.bound).toBe(true);
    expect(openSecret(serverKey, sealed!.cipher, created.id)).toBe(created.key);
  });

  it("defaults the integrator to the name", async () => {
    const created = await createApiKey(database.pool, serverKey, { name: "solo" });
    expect(created).toMatchObject({ integrator: "solo", elevated: false });
  });

  it("creates, lists and revokes through the keys command", async () => {
    const output = await runKeysCommand(database.pool, serverKey, ["create", "--name", "beta", "--integrator", "acme"]);
    const key = /key:\s+(cf_\S+)/.exec(output)![1];
    const id = /id:\s+(key_\S+)/.exec(output)![1];
    expect(await runKeysCommand(database.pool, serverKey, ["list"])).toMatch(
      new RegExp(`${id}\\tbeta\\tacme\\tstandard\\tactive`),
    );
    expect(await runKeysCommand(database.pool, serverKey, ["list"])).not.toContain(key);
    expect(await runKeysCommand(database.pool, serverKey, ["revoke", id])).toBe(`revoked ${id}`);
    expect((await findApiKeyByHash(database.pool, hashApiKey(key)))?.revokedAt).toBeInstanceOf(Date);
    await expect(runKeysCommand(database.pool, serverKey, ["revoke", id])).rejects.toThrow(/no active key/);
    expect(await getWebhookSecretCipher(database.pool, id)).toBeUndefined();
    await expect(runKeysCommand(database.pool, serverKey, ["create"])).rejects.toThrow(/--name is required/);
    await expect(runKeysCommand(database.pool, serverKey, ["create", "--name", "x", "--bogus"])).rejects.toThrow();
  });
});
