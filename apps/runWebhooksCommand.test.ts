import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getWebhookEndpoint } from "../schema/webhookEndpoints.js";
import { createApiKey } from "../src/apiKeys/createApiKey.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { runWebhooksCommand } from "./runWebhooksCommand.js";

describe("crossfill webhooks", () => {
  const database = useMigratedDatabase();
  const production = { allowPrivate: false, resolve: async () => ["93.184.216.34"] };

  it("sets, shows and disables a key's endpoint, keeping header values out of the output", async () => {
    const key = await createApiKey(database.pool, randomBytes(32), { name: "cli" });
    const set = await runWebhooksCommand(database.pool, production, [
      "set",
      "--key",
      key.id,
      "--url",
      "https://hooks.example.com/x",
      "--header",
      "Authorization: Bearer s3cret",
      "--header",
      "X-Team: ops",
    ]);
    expect(set).toContain("https://hooks.example.com/x\tenabled\theaders: Authorization, X-Team");
    expect(set).not.toContain("s3cret");
    expect((await getWebhookEndpoint(database.pool, key.id))?.headers).toEqual({
      Authorization: "Bearer s3cret",
      "X-Team": "ops",
    });
    const disabled = await runWebhooksCommand(database.pool, production, ["set", "--key", key.id, "--disable"]);
    expect(disabled).toContain("https://hooks.example.com/x\tdisabled (disabled by the owner");
    expect((await getWebhookEndpoint(database.pool, key.id))?.headers).toEqual({
      Authorization: "Bearer s3cret",
      "X-Team": "ops",
    });
    expect(await runWebhooksCommand(database.pool, production, ["show", "--key", key.id])).toContain(key.id);
  });

  it("refuses private targets in production and unknown keys, writing nothing", async () => {
    const key = await createApiKey(database.pool, randomBytes(32), { name: "cli2" });
    await expect(
      runWebhooksCommand(database.pool, production, ["set", "--key", key.id, "--url", "http://127.0.0.1:9000/"]),
    ).rejects.toThrow("must be https");
    await expect(
      runWebhooksCommand(database.pool, production, ["set", "--key", key.id, "--url", "https://10.0.0.1/"]),
    ).rejects.toThrow("non-public");
    await expect(
      runWebhooksCommand(database.pool, production, ["set", "--key", "nope", "--url", "https://hooks.example.com/"]),
    ).rejects.toThrow("no active key");
    expect(await getWebhookEndpoint(database.pool, key.id)).toBeUndefined();
    expect(
      await runWebhooksCommand(database.pool, { allowPrivate: true }, [
        "set",
        "--key",
        key.id,
        "--url",
        "http://127.0.0.1:9000/",
      ]),
    ).toContain("enabled");
  });
});
