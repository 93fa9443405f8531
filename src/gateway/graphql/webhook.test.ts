import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../../../schema/migrate.js";
import { createTestGraphqlServer } from "../../../test/support/createTestGraphqlServer.js";
import { insertTestDelivery } from "../../../test/support/insertTestDelivery.js";
import { insertTestRequest } from "../../../test/support/insertTestRequest.js";
import { createTestDatabase } from "../../../test/support/testDatabase.js";
import { createApiKey } from "../../apiKeys/createApiKey.js";
import { createStatusBus } from "../../events/createStatusBus.js";
import { createStatusFanout } from "../../events/createStatusFanout.js";
import type { createGraphqlServer } from "./createGraphqlServer.js";

describe("GraphQL webhooks: setWebhook, webhookDeliveries, replayWebhookDelivery", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: pg.Pool;
  const bus = createStatusBus();
  let production: ReturnType<typeof createGraphqlServer>;
  let devnet: ReturnType<typeof createGraphqlServer>;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 4 });
    await migrate(pool);
    production = createTestGraphqlServer({ db: pool, statusUpdates: createStatusFanout(bus) });
    devnet = createTestGraphqlServer({
      db: pool,
      statusUpdates: createStatusFanout(bus),
      webhookPolicy: { allowPrivate: true },
    });
  });
  afterAll(async () => {
    await production?.close();
    await devnet?.close();
    await bus.close();
    await pool?.end();
    await db?.drop();
  });

  async function gql(
    server: ReturnType<typeof createGraphqlServer>,
    query: string,
    variables: Record<string, unknown>,
    apiKey?: string,
  ) {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      ...(apiKey ? { "x-api-key": apiKey } : {}),
    };
    const response = await server.fetch(
      new Request("http://localhost/graphql", { method: "POST", headers, body: JSON.stringify({ query, variables }) }),
    );
    return {
      status: response.status,
      body: (await response.json()) as {
        data?: any;
        errors?: Array<{ message: string; extensions: { code: string } }>;
      },
    };
  }
  const SET = `mutation ($url: String!, $enabled: Boolean, $headers: [WebhookHeaderInput!]) {
    setWebhook(url: $url, enabled: $enabled, headers: $headers) { url enabled headerNames disabledReason } }`;

  it("sets the caller's endpoint; production refuses private and plain-http URLs with INVALID_INPUT", async () => {
    const key = await createApiKey(pool, randomBytes(32), { name: "gql" });
    for (const url of [
      "http://127.0.0.1:8080/hook",
      "https://10.1.2.3/hook",
      "https://[::1]/hook",
      "https://169.254.169.254/",
    ]) {
      const refused = await gql(production, SET, { url }, key.key);
      expect(refused.body.errors?.[0].extensions.code).toBe("INVALID_INPUT");
    }
    const header = await gql(
      devnet,
      SET,
      { url: "http://127.0.0.1:8080/hook", headers: [{ name: "X-Signature-SHA256", value: "x" }] },
      key.key,
    );
    expect(header.body.errors?.[0].extensions.code).toBe("INVALID_INPUT");
    const set = await gql(
      devnet,
      SET,
      { url: "http://127.0.0.1:8080/hook", headers: [{ name: "Authorization", value: "Bearer t" }] },
      key.key,
    );
    expect(set.body.data.setWebhook).toEqual({
      url: "http://127.0.0.1:8080/hook",
      enabled: true,
      headerNames: ["Authorization"],
      disabledReason: null,
    });
    const read = await gql(devnet, "{ webhook { url enabled } }", {}, key.key);
    expect(read.body.data.webhook).toEqual({ url: "http://127.0.0.1:8080/hook", enabled: true });
    // Headers omitted: the set is kept (its values cannot be read back to send again); given: replaced.
    const disabled = await gql(devnet, SET, { url: "http://127.0.0.1:8081/hook", enabled: false }, key.key);
    expect(disabled.body.data.setWebhook).toMatchObject({ enabled: false, headerNames: ["Authorization"] });
    const cleared = await gql(devnet, SET, { url: "http://127.0.0.1:8080/hook", headers: [] }, key.key);
    expect(cleared.body.data.setWebhook).toMatchObject({ enabled: true, headerNames: [] });
    const anonymous = await gql(devnet, SET, { url: "http://127.0.0.1:8080/hook" }, undefined);
    expect(anonymous.body.errors?.[0].extensions.code).toBe("UNAUTHORIZED");
  });

  it("lists the key's deliveries newest first with cursors and a status filter, and replays only its own", async () => {
    const key = await createApiKey(pool, randomBytes(32), { name: "gql-log" });
    const other = await createApiKey(pool, randomBytes(32), { name: "gql-other" });
    await gql(devnet, SET, { url: "http://127.0.0.1:8080/hook" }, key.key);
    const request = await insertTestRequest(pool, { apiKeyId: key.id });
    // Three deliveries of one event id each (the log does not care which event they carry).
    for (let i = 0; i < 3; i++) {
      await insertTestDelivery(pool, {
        apiKeyId: key.id,
        requestId: request.id,
        body: '{"event":"request.status.updated"}',
      });
    }
    await pool.query(
      "UPDATE crossfill.webhook_deliveries SET state = 'failed', attempts = 11, last_status_code = 500 WHERE id = (SELECT min(id) FROM crossfill.webhook_deliveries WHERE api_key_id = $1)",
      [key.id],
    );
    // its log: a timeout, then a 500 (the worker writes these rows as it records each attempt)
    await pool.query(
      `INSERT INTO crossfill.webhook_attempts (delivery_id, generation, attempt, outcome, status_code, error, latency_ms)
       SELECT min(id), 0, n, CASE n WHEN 1 THEN 'retrying' ELSE 'failed' END, CASE n WHEN 2 THEN 500 END, CASE n WHEN 1 THEN 'timed out after 10000 ms' ELSE 'HTTP 500' END, 10 * n
         FROM crossfill.webhook_deliveries, generate_series(1, 2) n WHERE api_key_id = $1 GROUP BY n`,
      [key.id],
    );
    const LOG = `query ($first: Int, $after: String, $status: WebhookDeliveryStatus) { webhookDeliveries(first: $first, after: $after, status: $status) {
      edges { cursor node { id eventId status attempts lastStatusCode body } } pageInfo { hasNextPage endCursor } } }`;
    const first = await gql(devnet, LOG, { first: 2 }, key.key);
    const page1 = first.body.data.webhookDeliveries;
    expect(page1.edges).toHaveLength(2);
    expect(page1.pageInfo.hasNextPage).toBe(true);
    expect(Number(page1.edges[0].node.id)).toBeGreaterThan(Number(page1.edges[1].node.id));
    const page2 = (await gql(devnet, LOG, { first: 2, after: page1.pageInfo.endCursor }, key.key)).body.data
      .webhookDeliveries;
    expect(page2.edges.map((edge: any) => edge.node.status)).toEqual(["FAILED"]);
    expect(page2.pageInfo.hasNextPage).toBe(false);
    expect(page2.edges[0].node.body).toEqual({ event: "request.status.updated" });
    const failed = (await gql(devnet, LOG, { status: "FAILED" }, key.key)).body.data.webhookDeliveries.edges;
    expect(failed.map((edge: any) => [edge.node.status, edge.node.attempts, edge.node.lastStatusCode])).toEqual([
      ["FAILED", 11, 500],
    ]);
    const ATTEMPTS =
      "query { webhookDeliveries(status: FAILED) { edges { node { attemptLog { generation attempt outcome statusCode error latencyMs attemptedAt } } } } }";
    const log = (await gql(devnet, ATTEMPTS, {}, key.key)).body.data.webhookDeliveries.edges[0].node.attemptLog;
    expect(log).toEqual([
      {
        generation: 0,
        attempt: 1,
        outcome: "RETRYING",
        statusCode: null,
        error: "timed out after 10000 ms",
        latencyMs: 10,
        attemptedAt: expect.any(String),
      },
      {
        generation: 0,
        attempt: 2,
        outcome: "FAILED",
        statusCode: 500,
        error: "HTTP 500",
        latencyMs: 20,
        attemptedAt: expect.any(String),
      },
    ]);
    expect((await gql(devnet, LOG, {}, other.key)).body.data.webhookDeliveries.edges).toEqual([]);
    expect((await gql(devnet, LOG, { after: "bogus" }, key.key)).body.errors?.[0].extensions.code).toBe(
      "INVALID_INPUT",
    );

    const REPLAY = "mutation ($id: ID!) { replayWebhookDelivery(id: $id) { id status attempts } }";
    const id = failed[0].node.id;
    expect((await gql(devnet, REPLAY, { id }, other.key)).body.errors?.[0].extensions.code).toBe("NOT_FOUND");
    expect((await gql(devnet, REPLAY, { id }, key.key)).body.data.replayWebhookDelivery).toEqual({
      id,
      status: "PENDING",
      attempts: 0,
    });
  });
});
