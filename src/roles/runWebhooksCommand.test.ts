import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../../schema/migrate.js";
import { getWebhookEndpoint } from "../../schema/webhookEndpoints.js";
import { createApiKey } from "../apiKeys/createApiKey.js";
import { createTestDatabase } from "../../test/support/testDatabase.js";
import { runWebhooksCommand } from "./runWebhooksCommand.js";

describe("crossfill webhooks", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: pg.Pool;
  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 3 });
    await migrate(pool);
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });
  const production = { allowPrivate: false, resolve: async () => ["93.184.216.34"] };

  it("sets, shows and disables a key's endpoint, keeping header values out of the output", async () => {
    const key = await createApiKey(pool, randomBytes(32), { name: "cli" });
    const set = await runWebhooksCommand(pool, production, ["set", "--key", key.id, "--url", "https://hooks.example.com/x", "--header", "Authorization: Bearer s3cret", "--header", "X-Team: ops"]);
    expect(set).toContain("https://hooks.example.com/x\tenabled\theaders: Authorization, X-Team");
    expect(set).not.toContain("s3cret");
    expect((await getWebhookEndpoint(pool, key.id))?.headers).toEqual({ Authorization: "Bearer s3cret", "X-Team": "ops" });
    const disabled = await runWebhooksCommand(pool, production, ["set", "--key", key.id, "--disable"]);
    expect(disabled).toContain("https://hooks.example.com/x\tdisabled (disabled by the owner");
    expect((await getWebhookEndpoint(pool, key.id))?.headers).toEqual({ Authorization: "Bearer s3cret", "X-Team": "ops" });
    expect(await runWebhooksCommand(pool, production, ["show", "--key", key.id])).toContain(key.id);
  });

  it("refuses private targets in production and unknown keys, writing nothing", async () => {
    const key = await createApiKey(pool, randomBytes(32), { name: "cli2" });
    await expect(runWebhooksCommand(pool, production, ["set", "--key", key.id, "--url", "http://127.0.0.1:9000/"])).rejects.toThrow("must be https");
    await expect(runWebhooksCommand(pool, production, ["set", "--key", key.id, "--url", "https://10.0.0.1/"])).rejects.toThrow("non-public");
    await expect(runWebhooksCommand(pool, production, ["set", "--key", "nope", "--url", "https://hooks.example.com/"])).rejects.toThrow("no active key");
    expect(await getWebhookEndpoint(pool, key.id)).toBeUndefined();
    expect(await runWebhooksCommand(pool, { allowPrivate: true }, ["set", "--key", key.id, "--url", "http://127.0.0.1:9000/"])).toContain("enabled");
  });
});
