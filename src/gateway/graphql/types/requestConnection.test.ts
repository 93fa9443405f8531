import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeApiKey } from "../../../../schema/apiKeys.js";
import { fetchGraphql } from "../../../../test/support/fetchGraphql.js";
import { createTestGraphqlServer } from "../../../../test/support/createTestGraphqlServer.js";
import { insertStatsRequest } from "../../../../test/support/insertStatsRequest.js";
import { useMigratedDatabase } from "../../../../test/support/useMigratedDatabase.js";
import { type CreatedApiKey, createApiKey } from "../../../apiKeys/createApiKey.js";
import { createStatusBus } from "../../../events/createStatusBus.js";
import { createStatusFanout } from "../../../events/createStatusFanout.js";
import type { createGraphqlServer } from "../createGraphqlServer.js";

const REQUESTS = `query ($filter: RequestFilterInput, $first: Int, $after: String) {
  requests(filter: $filter, first: $first, after: $after, includeTotal: true) {
    edges { node { id referrer } } pageInfo { hasNextPage endCursor } totalCount } }`;
const STATS = `query ($filter: RequestFilterInput) {
  requestStats(filter: $filter, from: "2026-03-01T00:00:00Z", to: "2026-03-08T00:00:00Z") { count volumeUsd } }`;
const KEYS = 60;

describe("requests and requestStats scoped to the caller's integrator (myIntegrator)", () => {
  const database = useMigratedDatabase();
  const bus = createStatusBus();
  let server: ReturnType<typeof createGraphqlServer>;
  let acmeKeys: CreatedApiKey[];
  let globexKey: CreatedApiKey;
  const acmeRequests: string[] = [];
  let globexRequest: string;

  beforeAll(async () => {
    const pool = database.pool;
    server = createTestGraphqlServer({ db: pool, statusUpdates: createStatusFanout(bus) });
    const serverKey = randomBytes(32);
    acmeKeys = [];
    for (let index = 0; index < KEYS; index++)
      acmeKeys.push(await createApiKey(pool, serverKey, { name: `acme ${index}`, integrator: "acme" }));
    globexKey = await createApiKey(pool, serverKey, { name: "globex" });
    const base = { origin: 31338, destination: 31339, symbol: "USDC", status: "success" };
    // Requests of the first, a middle and the last key; the last is then revoked (its requests stay the integrator's).
    for (const [index, day] of [
      [0, 2],
      [30, 3],
      [KEYS - 1, 4],
    ] as const) {
      const id = await insertStatsRequest(pool, {
        ...base,
        apiKeyId: acmeKeys[index].id,
        createdAt: `2026-03-0${day}T08:00:00Z`,
        amountUsd: "10",
      });
      acmeRequests.push(id);
    }
    await pool.query("UPDATE crossfill.requests SET referrer = 'acme-web' WHERE id = $1", [acmeRequests[1]]);
    expect(await revokeApiKey(pool, acmeKeys[KEYS - 1].id)).toBe(true);
    globexRequest = await insertStatsRequest(pool, {
      ...base,
      apiKeyId: globexKey.id,
      createdAt: "2026-03-03T09:00:00Z",
      amountUsd: "1000",
    });
    // Quoted without a key: nobody's.
    await insertStatsRequest(pool, { ...base, createdAt: "2026-03-03T10:00:00Z", amountUsd: "5" });
  });
  afterAll(async () => {
    await server?.close();
    await bus.close();
  });

  const gql = (query: string, variables: Record<string, unknown>, apiKey?: string) =>
    fetchGraphql(server, query, variables, apiKey);
  const ids = (body: any) => body.data.requests.edges.map((edge: any) => edge.node.id);

  it("an apiKey filter cannot name every key of an integrator with more than 50: the reason for the scope", async () => {
    const body = await gql(REQUESTS, { filter: { apiKey: acmeKeys.map((key) => key.id) } }, acmeKeys[0].key);
    expect(body.errors[0].extensions.code).toBe("INVALID_INPUT");
  });

  it("lists every request quoted with any key of the caller's integrator, revoked keys included, newest first", async () => {
    const body = await gql(REQUESTS, { filter: { myIntegrator: true } }, acmeKeys[7].key);
    expect(body.errors).toBeUndefined();
    expect(ids(body)).toEqual([...acmeRequests].reverse());
    expect(body.data.requests.totalCount).toBe(3);
    // The referrer is the integrator's own: shown, and filterable with the scope alone (no apiKey needed).
    expect(body.data.requests.edges[1].node.referrer).toBe("acme-web");
    const byReferrer = await gql(REQUESTS, { filter: { myIntegrator: true, referrer: ["acme-web"] } }, acmeKeys[7].key);
    expect(byReferrer.errors).toBeUndefined();
    expect(ids(byReferrer)).toEqual([acmeRequests[1]]);
  });

  it("pages through the scope with cursors", async () => {
    const first = await gql(REQUESTS, { filter: { myIntegrator: true }, first: 2 }, acmeKeys[0].key);
    expect(ids(first)).toEqual([acmeRequests[2], acmeRequests[1]]);
    expect(first.data.requests.pageInfo.hasNextPage).toBe(true);
    const second = await gql(
      REQUESTS,
      { filter: { myIntegrator: true }, first: 2, after: first.data.requests.pageInfo.endCursor },
      acmeKeys[0].key,
    );
    expect(ids(second)).toEqual([acmeRequests[0]]);
    expect(second.data.requests.pageInfo.hasNextPage).toBe(false);
  });

  it("never widens what another integrator sees: each key gets its own integrator's requests and stats only", async () => {
    const globex = await gql(REQUESTS, { filter: { myIntegrator: true } }, globexKey.key);
    expect(ids(globex)).toEqual([globexRequest]);
    const globexStats = await gql(STATS, { filter: { myIntegrator: true } }, globexKey.key);
    expect(globexStats.data.requestStats).toEqual([{ count: 1, volumeUsd: "1000" }]);
    // Naming the other integrator's key with the scope is still refused.
    const foreign = await gql(REQUESTS, { filter: { myIntegrator: true, apiKey: [acmeKeys[0].id] } }, globexKey.key);
    expect(foreign.errors[0].extensions.code).toBe("FORBIDDEN");
    const acmeStats = await gql(STATS, { filter: { myIntegrator: true } }, acmeKeys[KEYS - 2].key);
    expect(acmeStats.errors).toBeUndefined();
    expect(acmeStats.data.requestStats).toEqual([{ count: 3, volumeUsd: "30" }]);
  });

  it("a revoked key or no key gets UNAUTHORIZED, and myIntegrator: false is no scope", async () => {
    const revoked = await gql(REQUESTS, { filter: { myIntegrator: true } }, acmeKeys[KEYS - 1].key);
    expect(revoked.errors[0].extensions.code).toBe("UNAUTHORIZED");
    const anonymous = await gql(STATS, { filter: { myIntegrator: true } });
    expect(anonymous.errors[0].extensions.code).toBe("UNAUTHORIZED");
    const unscoped = await gql(STATS, { filter: { myIntegrator: false } }, globexKey.key);
    expect(unscoped.data.requestStats).toEqual([{ count: 5, volumeUsd: "1035" }]);
  });
});
