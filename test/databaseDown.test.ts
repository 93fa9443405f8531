import { randomBytes } from "node:crypto";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStatusBus } from "../src/events/createStatusBus.js";
import { createRedisRateLimiter } from "../src/gateway/http/rateLimiter.js";
import { type GatewayServer, startGatewayServer } from "../src/gateway/server.js";
import { createTestQuoteEngine } from "./support/createTestGraphqlServer.js";

const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const requestId = `0x${"ab".repeat(32)}`;

describe("a gateway whose database cannot be reached", () => {
  // Nothing listens on port 1: every connection is refused, as when Postgres is stopped.
  const secret = "s3cret-password";
  const pool = new pg.Pool({ connectionString: `postgres://crossfill:${secret}@127.0.0.1:1/crossfill` });
  const statusBus = createStatusBus();
  // Counters on Redis, so the requests get past the rate limits and meet the database in the routes themselves.
  const rateLimiter = createRedisRateLimiter(redisUrl, `test-down-${randomBytes(4).toString("hex")}`);
  let server: GatewayServer;
  beforeAll(async () => {
    const { registry, adapters, quoteEngine } = createTestQuoteEngine(pool);
    server = await startGatewayServer({
      host: "127.0.0.1",
      port: 0,
      pool,
      registry,
      adapters,
      logger: pino({ level: "silent" }),
      statusBus,
      rateLimiter,
      quoteEngine,
    });
  });
  afterAll(async () => {
    await server?.close();
    await rateLimiter.close();
    await statusBus.close();
    await pool.end();
  });

  it("answers REST with 503 SERVICE_UNAVAILABLE, not 500, and leaks nothing of the connection", async () => {
    for (const [path, headers] of [
      ["/requests/v3", { "x-api-key": "some-key" }],
      [`/intents/status/v3?requestId=${requestId}`, {}],
    ] as const) {
      const response = await fetch(`${server.url}${path}`, { headers });
      const text = await response.text();
      expect([path, response.status]).toEqual([path, 503]);
      expect(JSON.parse(text)).toEqual({
        message: "the database is unavailable; retry shortly",
        errorCode: "SERVICE_UNAVAILABLE",
      });
      expect(text).not.toMatch(/127\.0\.0\.1|s3cret|ECONNREFUSED/);
    }
  });

  it("answers GraphQL with extensions.code SERVICE_UNAVAILABLE and HTTP 503", async () => {
    const response = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: `{ request(id: "${requestId}") { id } }` }),
    });
    const text = await response.text();
    expect(response.status).toBe(503);
    const body = JSON.parse(text);
    expect(body.errors[0]).toMatchObject({
      message: "the database is unavailable; retry shortly",
      extensions: { code: "SERVICE_UNAVAILABLE" },
    });
    expect(text).not.toMatch(/127\.0\.0\.1|s3cret|ECONNREFUSED/);
  });
});
