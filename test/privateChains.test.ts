import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CreatedApiKey, createApiKey } from "../src/apiKeys/createApiKey.js";
import { DEFAULT_ROUTE_LIMITS } from "../src/gateway/http/routeLimits.js";
import { insertTestRequest } from "./support/insertTestRequest.js";
import { type RestAppStack, startRestApp } from "./support/startRestApp.js";

const PRIVATE_ID = randomUUID();

// Chain 31339 is private: its requests stay out of every listing unless a client names its UUID.
describe("private chains in request listings", () => {
  let stack: RestAppStack;
  let key: CreatedApiKey;
  let publicRequest: string;
  let privateRequest: string;

  const getJson = async (path: string, apiKey?: string) => {
    const response = await fetch(`${stack.url}${path}`, { headers: apiKey ? { "x-api-key": apiKey } : {} });
    return { status: response.status, body: (await response.json()) as any };
  };
  const graphql = async (query: string, apiKey?: string) => {
    const response = await fetch(`${stack.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(apiKey ? { "x-api-key": apiKey } : {}) },
      body: JSON.stringify({ query }),
    });
    return (await response.json()) as any;
  };
  const ids = (requests: Array<{ id: string }>) => requests.map((request) => request.id).sort();

  beforeAll(async () => {
    const generous = { anonymous: 1000, standard: 1000, elevated: 1000 };
    stack = await startRestApp(
      {
        // Before v2's sunset (it answers 410 after), so both versions are compared.
        now: () => new Date("2026-08-01T00:00:00Z"),
        routeLimits: {
          ...DEFAULT_ROUTE_LIMITS,
          requestsV2: { ...DEFAULT_ROUTE_LIMITS.requestsV2, ...generous },
          requestsV3: { ...DEFAULT_ROUTE_LIMITS.requestsV3, ...generous },
        },
      },
      {
        chains: (devnet) =>
          devnet.chains.map((chain) => (chain.id === 31339 ? { ...chain, privateId: PRIVATE_ID } : chain)),
      },
    );
    key = await createApiKey(stack.pool, stack.serverKey, { name: "acme", integrator: "acme" });
    publicRequest = (await insertTestRequest(stack.pool, { originChainId: 31338, destinationChainId: 31338 })).id;
    privateRequest = (await insertTestRequest(stack.pool, { originChainId: 31339, destinationChainId: 31338 })).id;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("GET /requests/v3 leaves the private chain's requests out, in the page and in the total, unless named", async () => {
    const hidden = await getJson("/requests/v3?includeTotal=true", key.key);
    expect(hidden.status).toBe(200);
    expect(ids(hidden.body.requests)).toEqual([publicRequest]);
    expect(hidden.body.total).toBe(1);
    // Naming the private chain's id does not reveal it either.
    const byChain = await getJson("/requests/v3?chainId=31339", key.key);
    expect(byChain.body.requests).toEqual([]);

    const named = await getJson(`/requests/v3?includeTotal=true&privateChainsToInclude=${PRIVATE_ID}`, key.key);
    expect(ids(named.body.requests)).toEqual([publicRequest, privateRequest].sort());
    expect(named.body.total).toBe(2);
  });

  it("GET /requests/v2 and /requests do the same", async () => {
    for (const path of ["/requests/v2", "/requests"]) {
      expect(ids((await getJson(path)).body.requests)).toEqual([publicRequest]);
      const named = await getJson(`${path}?privateChainsToInclude=${PRIVATE_ID.toUpperCase()}`);
      expect(ids(named.body.requests)).toEqual([publicRequest, privateRequest].sort());
    }
  });

  it("refuses a UUID that names no private chain, and anything that is not a UUID", async () => {
    const stranger = randomUUID();
    for (const path of ["/requests/v3", "/requests/v2"]) {
      const unknown = await getJson(`${path}?privateChainsToInclude=${PRIVATE_ID},${stranger}`, key.key);
      expect(unknown.status).toBe(400);
      expect(unknown.body).toMatchObject({ errorCode: "INVALID_INPUT" });
      expect(unknown.body.message).toContain(stranger);
      const malformed = await getJson(`${path}?privateChainsToInclude=31339`, key.key);
      expect(malformed.status).toBe(400);
      expect(malformed.body.errorCode).toBe("INVALID_INPUT");
    }
  });

  it("GraphQL: requests and requestStats take privateChainsToInclude; the public explorer never shows the chain", async () => {
    const listing = (filter: string) =>
      graphql(`{ requests(filter: {${filter}}) { edges { node { id } } totalCount } }`, key.key);
    const hidden = await listing("");
    expect(hidden.errors).toBeUndefined();
    expect(hidden.data.requests.edges.map((edge: any) => edge.node.id)).toEqual([publicRequest]);
    const named = await listing(`privateChainsToInclude: ["${PRIVATE_ID}"]`);
    expect(named.data.requests.edges.map((edge: any) => edge.node.id).sort()).toEqual(
      [publicRequest, privateRequest].sort(),
    );
    const refused = await listing(`privateChainsToInclude: ["${randomUUID()}"]`);
    expect(refused.errors[0].extensions.code).toBe("INVALID_INPUT");
    expect(refused.data).toBeNull();

    const day = 86_400_000;
    const stats = async (filter: string) => {
      const [from, to] = [new Date(Date.now() - day).toISOString(), new Date(Date.now() + day).toISOString()];
      const body = await graphql(
        `{ requestStats(filter: {${filter}}, from: "${from}", to: "${to}") { count } }`,
        key.key,
      );
      expect(body.errors).toBeUndefined();
      return body.data.requestStats.reduce((sum: number, bucket: { count: number }) => sum + bucket.count, 0);
    };
    expect(await stats("")).toBe(1);
    expect(await stats(`privateChainsToInclude: ["${PRIVATE_ID}"]`)).toBe(2);

    const explorer = await graphql(
      `{ recent: explorerRequests { id } byId: explorerRequests(term: "${privateRequest}") { id } }`,
    );
    expect(explorer.errors).toBeUndefined();
    expect(explorer.data.recent.map((request: any) => request.id)).toEqual([publicRequest]);
    expect(explorer.data.byId).toEqual([]);
  });
});
