import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestGraphqlServer } from "../../../../test/support/createTestGraphqlServer.js";
import { insertTestDelivery } from "../../../../test/support/insertTestDelivery.js";
import { insertTestRequest } from "../../../../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../../../../test/support/useMigratedDatabase.js";
import { type CreatedApiKey, createApiKey } from "../../../apiKeys/createApiKey.js";
import { openSecret } from "../../../apiKeys/secretBox.js";
import { getWebhookSecretCipher, setKeyOraclePricing } from "../../../../schema/apiKeys.js";
import { createStatusBus } from "../../../events/createStatusBus.js";
import { createStatusFanout } from "../../../events/createStatusFanout.js";
import type { createGraphqlServer } from "../createGraphqlServer.js";

type Answer = { data?: any; errors?: Array<{ message: string; extensions: { code: string } }> };

describe("GraphQL API keys for the dashboard: the management model and integrator isolation", () => {
  const database = useMigratedDatabase({ max: 4 });
  const serverKey = randomBytes(32);
  const bus = createStatusBus();
  let server: ReturnType<typeof createGraphqlServer>;
  // Integrator A: a managing key and a plain one. Integrator B: a managing key with a webhook and a delivery.
  let aManager: CreatedApiKey;
  let aPlain: CreatedApiKey;
  let bManager: CreatedApiKey;
  let bDeliveryId: string;

  beforeAll(async () => {
    const pool = database.pool;
    server = createTestGraphqlServer({
      db: pool,
      statusUpdates: createStatusFanout(bus),
      webhookPolicy: { allowPrivate: true },
      serverKey,
    });
    aManager = await createApiKey(pool, serverKey, { name: "a-admin", integrator: "a", managesKeys: true });
    aPlain = await createApiKey(pool, serverKey, { name: "a-plain", integrator: "a" });
    bManager = await createApiKey(pool, serverKey, { name: "b-admin", integrator: "b", managesKeys: true });
    await gql(
      `mutation { setWebhook(url: "http://127.0.0.1:9/b", headers: [{ name: "Authorization", value: "b-secret" }]) { url } }`,
      {},
      bManager.key,
    );
    const request = await insertTestRequest(pool, { apiKeyId: bManager.id });
    bDeliveryId = await insertTestDelivery(pool, { apiKeyId: bManager.id, requestId: request.id, body: "{}" });
    await pool.query("UPDATE crossfill.webhook_deliveries SET state = 'failed' WHERE id = $1", [bDeliveryId]);
  });
  afterAll(async () => {
    await server?.close();
    await bus.close();
  });

  async function gql(query: string, variables: Record<string, unknown>, apiKey?: string): Promise<Answer> {
    const response = await server.fetch(
      new Request("http://localhost/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", ...(apiKey ? { "x-api-key": apiKey } : {}) },
        body: JSON.stringify({ query, variables }),
      }),
    );
    return (await response.json()) as Answer;
  }
  const codeOf = (answer: Answer) => answer.errors?.[0]?.extensions.code;
  const KEYS = "{ apiKeys { id name integrator managesKeys current revokedAt webhook { url headerNames } } }";

  it("signs in: viewer is the key presented; no key is UNAUTHORIZED, a revoked or unknown one too", async () => {
    const viewer = await gql("{ viewer { id name integrator elevated managesKeys current } }", {}, aPlain.key);
    expect(viewer.data.viewer).toEqual({
      id: aPlain.id,
      name: "a-plain",
      integrator: "a",
      elevated: false,
      managesKeys: false,
      current: true,
    });
    expect(codeOf(await gql("{ viewer { id } }", {}))).toBe("UNAUTHORIZED");
    expect(codeOf(await gql("{ viewer { id } }", {}, `cf_${randomBytes(32).toString("base64url")}`))).toBe(
      "UNAUTHORIZED",
    );
  });

  it("lists only the caller's integrator's keys, to any of its keys; never the key itself", async () => {
    const asPlain = await gql(KEYS, {}, aPlain.key);
    expect(asPlain.data.apiKeys.map((key: any) => [key.id, key.integrator, key.current])).toEqual([
      [aManager.id, "a", false],
      [aPlain.id, "a", true],
    ]);
    expect(JSON.stringify(asPlain)).not.toContain("cf_");
    const asB = await gql(KEYS, {}, bManager.key);
    expect(asB.data.apiKeys).toEqual([
      {
        id: bManager.id,
        name: "b-admin",
        integrator: "b",
        managesKeys: true,
        current: true,
        revokedAt: null,
        webhook: { url: "http://127.0.0.1:9/b", headerNames: ["Authorization"] },
      },
    ]);
    expect(JSON.stringify(asB)).not.toContain("b-secret");
  });

  it("a managing key creates a working standard key of its integrator (shown once), renames and revokes it", async () => {
    const created = await gql(
      `mutation ($name: String!) { createApiKey(name: $name) { key apiKey { id name integrator managesKeys elevated } } }`,
      { name: "  mobile app " },
      aManager.key,
    );
    const { key, apiKey } = created.data.createApiKey;
    expect(key).toMatch(/^cf_[A-Za-z0-9_-]{43}$/);
    expect(apiKey).toMatchObject({ name: "mobile app", integrator: "a", managesKeys: false, elevated: false });
    // The new key signs in, and the worker can unseal it to sign its webhooks.
    expect((await gql("{ viewer { id } }", {}, key)).data.viewer.id).toBe(apiKey.id);
    const sealed = await getWebhookSecretCipher(database.pool, apiKey.id);
    expect(openSecret(serverKey, sealed!.cipher, apiKey.id)).toBe(key);

    const RENAME = "mutation ($id: ID!, $name: String!) { renameApiKey(id: $id, name: $name) { id name } }";
    expect((await gql(RENAME, { id: apiKey.id, name: "iOS" }, aManager.key)).data.renameApiKey.name).toBe("iOS");
    expect(codeOf(await gql(RENAME, { id: apiKey.id, name: " " }, aManager.key))).toBe("INVALID_INPUT");
    expect(codeOf(await gql(RENAME, { id: apiKey.id, name: "x".repeat(65) }, aManager.key))).toBe("INVALID_INPUT");

    const REVOKE = "mutation ($id: ID!) { revokeApiKey(id: $id) { id revokedAt } }";
    const revoked = await gql(REVOKE, { id: apiKey.id }, aManager.key);
    expect(revoked.data.revokeApiKey.revokedAt).toEqual(expect.any(String));
    expect(codeOf(await gql("{ viewer { id } }", {}, key))).toBe("UNAUTHORIZED");
    expect(codeOf(await gql(REVOKE, { id: apiKey.id }, aManager.key))).toBe("INVALID_INPUT");
    // A key cannot lock its integrator out by revoking itself.
    expect(codeOf(await gql(REVOKE, { id: aManager.id }, aManager.key))).toBe("INVALID_INPUT");
  });

  it("attack: a key reads its oracle pricing but no dashboard mutation sets it; a key it creates is priced normally", async () => {
    await setKeyOraclePricing(database.pool, aManager.id, 40n);
    const VIEWER = "{ viewer { id oraclePricingBps } }";
    expect((await gql(VIEWER, {}, aManager.key)).data.viewer.oraclePricingBps).toBe("40");
    expect((await gql(VIEWER, {}, aPlain.key)).data.viewer.oraclePricingBps).toBeNull();
    // No mutation, nor any input type under one, takes a pricing argument.
    const schema = await gql(
      `{ __schema { mutationType { fields { name args { name type { ...T } } } }
                    types { name inputFields { name type { ...T } } } } }
       fragment T on __Type { name kind ofType { name kind ofType { name kind ofType { name kind } } } }`,
      {},
    );
    const names: string[] = [];
    const inputs = new Map<string, Array<{ name: string; type: any }>>(
      schema.data.__schema.types.map((type: any) => [type.name, type.inputFields ?? []]),
    );
    const visit = (fields: Array<{ name: string; type: any }>, seen: Set<string>) => {
      for (const field of fields) {
        names.push(field.name);
        let type = field.type;
        while (type.ofType) type = type.ofType;
        if (!seen.has(type.name)) visit(inputs.get(type.name) ?? [], new Set([...seen, type.name]));
      }
    };
    for (const mutation of schema.data.__schema.mutationType.fields) visit(mutation.args, new Set());
    expect(names.length).toBeGreaterThan(10);
    expect(names.filter((name) => /oracle|pricing/i.test(name))).toEqual([]);
    // Asking anyway is refused before anything runs.
    const refused = await gql(
      `mutation ($id: ID!) { renameApiKey(id: $id, name: "a-admin", oraclePricingBps: "0") { id } }`,
      { id: aManager.id },
      aManager.key,
    );
    expect(codeOf(refused)).toBe("GRAPHQL_VALIDATION_FAILED");
    const created = await gql(
      `mutation { createApiKey(name: "cheap") { apiKey { id oraclePricingBps } } }`,
      {},
      aManager.key,
    );
    expect(created.data.createApiKey.apiKey.oraclePricingBps).toBeNull();
    const stored = await database.pool.query(
      "SELECT id, oracle_pricing_bps FROM crossfill.api_keys WHERE integrator = 'a'",
    );
    expect(Object.fromEntries(stored.rows.map((row) => [row.id, row.oracle_pricing_bps]))).toMatchObject({
      [aManager.id]: 40,
      [aPlain.id]: null,
      [created.data.createApiKey.apiKey.id]: null,
    });
    await setKeyOraclePricing(database.pool, aManager.id, null);
  });

  it("a key not marked for management may change only its own webhook: no key creation, rename or revocation", async () => {
    expect(codeOf(await gql(`mutation { createApiKey(name: "x") { key } }`, {}, aPlain.key))).toBe("FORBIDDEN");
    expect(
      codeOf(await gql("mutation ($id: ID!) { revokeApiKey(id: $id) { id } }", { id: aManager.id }, aPlain.key)),
    ).toBe("FORBIDDEN");
    expect(
      codeOf(
        await gql(`mutation ($id: ID!) { renameApiKey(id: $id, name: "x") { id } }`, { id: aPlain.id }, aPlain.key),
      ),
    ).toBe("FORBIDDEN");
    const SET = `mutation ($k: ID) { setWebhook(apiKeyId: $k, url: "http://127.0.0.1:9/a") { apiKeyId url } }`;
    expect(codeOf(await gql(SET, { k: aManager.id }, aPlain.key))).toBe("FORBIDDEN");
    expect((await gql(SET, { k: aPlain.id }, aPlain.key)).data.setWebhook.apiKeyId).toBe(aPlain.id);
    // Reading the integrator's other keys' webhooks is allowed.
    const read = await gql("query ($k: ID) { webhook(apiKeyId: $k) { url } }", { k: aPlain.id }, aManager.key);
    expect(read.data.webhook.url).toBe("http://127.0.0.1:9/a");
  });

  it("no key sees or changes another integrator's keys, webhooks or deliveries: NOT_FOUND as for an unknown id", async () => {
    const attempts: Array<[string, Record<string, unknown>]> = [
      ["mutation ($k: ID!) { revokeApiKey(id: $k) { id } }", {}],
      [`mutation ($k: ID!) { renameApiKey(id: $k, name: "pwned") { id } }`, {}],
      [`mutation ($k: ID) { setWebhook(apiKeyId: $k, url: "http://127.0.0.1:9/evil") { url } }`, {}],
      ["mutation ($k: ID) { sendTestWebhook(apiKeyId: $k) { id } }", {}],
      ["query ($k: ID) { webhook(apiKeyId: $k) { url } }", {}],
      ["query ($k: ID) { webhookDeliveries(apiKeyId: $k) { edges { node { id } } } }", {}],
      ["mutation ($k: ID, $d: ID!) { replayWebhookDelivery(id: $d, apiKeyId: $k) { id } }", { d: bDeliveryId }],
    ];
    for (const [query, extra] of attempts) {
      const other = await gql(query, { k: bManager.id, ...extra }, aManager.key);
      const unknown = await gql(query, { k: "key_doesnotexist", ...extra }, aManager.key);
      expect([query, codeOf(other)]).toEqual([query, "NOT_FOUND"]);
      // The same answer as for a key that does not exist: no existence oracle.
      expect(other.errors?.[0].message.replace(bManager.id, "ID")).toBe(
        unknown.errors?.[0].message.replace("key_doesnotexist", "ID"),
      );
    }
    // B's delivery named without a key: not the caller's key's, NOT_FOUND.
    const replay = await gql(
      "mutation ($d: ID!) { replayWebhookDelivery(id: $d) { id } }",
      { d: bDeliveryId },
      aManager.key,
    );
    expect(codeOf(replay)).toBe("NOT_FOUND");
    // Nothing of B changed.
    const b = (await gql(KEYS, {}, bManager.key)).data.apiKeys[0];
    expect(b).toMatchObject({ name: "b-admin", revokedAt: null, webhook: { url: "http://127.0.0.1:9/b" } });
    const deliveries = await database.pool.query(
      "SELECT state, generation FROM crossfill.webhook_deliveries WHERE api_key_id = $1",
      [bManager.id],
    );
    expect(deliveries.rows).toEqual([{ state: "failed", generation: 0 }]);
    // B's requests and numbers: the listing and analytics refuse another integrator's key as a filter.
    const requests = await gql(
      "query ($k: String!) { requests(filter: { apiKey: [$k] }) { edges { node { id } } } }",
      { k: bManager.id },
      aManager.key,
    );
    expect(codeOf(requests)).toBe("FORBIDDEN");
    const stats = await gql(
      `query ($k: String!) { requestStats(filter: { apiKey: [$k] }, from: "2020-01-01T00:00:00Z", to: "2020-02-01T00:00:00Z") { count } }`,
      { k: bManager.id },
      aManager.key,
    );
    expect(codeOf(stats)).toBe("FORBIDDEN");
  });

  it("sends a test event to an enabled endpoint, logged as a test delivery; none without an endpoint", async () => {
    const SEND = "mutation ($k: ID) { sendTestWebhook(apiKeyId: $k) { id apiKeyId test status requestId body } }";
    expect(codeOf(await gql(SEND, { k: aManager.id }, aManager.key))).toBe("INVALID_INPUT");
    const answer = await gql(SEND, { k: aPlain.id }, aManager.key);
    expect(answer.errors).toBeUndefined();
    const sent = answer.data.sendTestWebhook;
    expect(sent).toMatchObject({ apiKeyId: aPlain.id, test: true, status: "PENDING", requestId: `test_${sent.id}` });
    expect(sent.body).toMatchObject({ event: "webhook.test", data: { apiKeyId: aPlain.id, deliveryId: sent.id } });
    const log = await gql(
      "query ($k: ID) { webhookDeliveries(apiKeyId: $k) { edges { node { id test } } } }",
      { k: aPlain.id },
      aPlain.key,
    );
    expect(log.data.webhookDeliveries.edges).toEqual([{ node: { id: sent.id, test: true } }]);
  });
});
