import { createCipheriv, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getWebhookSecretCipher, insertApiKey } from "../../schema/apiKeys.js";
import { useMigratedDatabase } from "../../test/support/useMigratedDatabase.js";
import { bindLegacyWebhookSecrets } from "./bindLegacyWebhookSecrets.js";
import { openSecret } from "./secretBox.js";

/** A value sealed as versions before binding did: no associated data. */
function legacySeal(serverKey: Buffer, plaintext: string) {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", serverKey, iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

describe("bindLegacyWebhookSecrets", () => {
  const database = useMigratedDatabase({ max: 2 });
  const serverKey = randomBytes(32);

  it("re-seals secrets sealed before binding to their own key id, once, and leaves what does not open", async () => {
    const legacyKey = async (id: string, sealed: Buffer) => {
      await insertApiKey(database.pool, {
        id,
        name: id,
        integrator: id,
        elevated: false,
        keyHash: randomBytes(32),
        webhookSecretCipher: sealed,
      });
      // rows written before migration 0320 are unbound
      await database.pool.query("UPDATE crossfill.api_keys SET webhook_secret_bound = false WHERE id = $1", [id]);
    };
    await legacyKey("key_old", legacySeal(serverKey, "cf_old"));
    await legacyKey("key_foreign", legacySeal(randomBytes(32), "cf_foreign"));

    expect(await bindLegacyWebhookSecrets(database.pool, serverKey)).toEqual({ bound: 1, unreadable: ["key_foreign"] });
    const sealed = await getWebhookSecretCipher(database.pool, "key_old");
    expect(sealed!.bound).toBe(true);
    expect(openSecret(serverKey, sealed!.cipher, "key_old")).toBe("cf_old");
    expect((await getWebhookSecretCipher(database.pool, "key_foreign"))!.bound).toBe(false);
    // a second worker finds nothing more to do
    expect(await bindLegacyWebhookSecrets(database.pool, serverKey)).toEqual({ bound: 0, unreadable: ["key_foreign"] });
  });
});
