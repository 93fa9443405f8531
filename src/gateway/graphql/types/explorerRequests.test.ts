import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertChildRequest } from "../../../../schema/requests.js";
import { createApiKey } from "../../../apiKeys/createApiKey.js";
import { createStatusBus } from "../../../events/createStatusBus.js";
import { createStatusFanout } from "../../../events/createStatusFanout.js";
import { createTestGraphqlServer } from "../../../../test/support/createTestGraphqlServer.js";
import { insertTestRequest } from "../../../../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../../../../test/support/useMigratedDatabase.js";

const QUERY = `query ($term: String, $first: Int, $status: [RequestStatus!], $chainId: Int, $after: String) {
  explorerRequests(term: $term, first: $first, status: $status, chainId: $chainId, after: $after) { id referrer parentRequestId }
}`;

describe("explorerRequests (the public explorer's search, no key)", () => {
  const database = useMigratedDatabase();
  const bus = createStatusBus();
  let server: ReturnType<typeof createTestGraphqlServer>;
  beforeAll(() => {
    server = createTestGraphqlServer({ db: database.pool, statusUpdates: createStatusFanout(bus) });
  });
  afterAll(async () => {
    await server?.close();
    await bus.close();
  });

  const gql = async (variables: Record<string, unknown>) => {
    const response = await server.fetch(
      new Request("http://localhost/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: QUERY, variables }),
      }),
    );
    return (await response.json()) as {
      data?: { explorerRequests: { id: string; referrer: null; parentRequestId: string | null }[] };
      errors?: any[];
    };
  };

  it("lists the newest requests and finds one by a term, with no key and no integrator's data", async () => {
    const key = await createApiKey(database.pool, randomBytes(32), { name: "acme" });
    const user = `0x${randomBytes(20).toString("hex")}`;
    const older = await insertTestRequest(database.pool, { user, apiKeyId: key.id, referrer: "acme.app" });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const newer = await insertTestRequest(database.pool, { user });

    const recent = await gql({ first: 2 });
    expect(recent.errors).toBeUndefined();
    expect(recent.data?.explorerRequests.map((request) => request.id)).toEqual([newer.id, older.id]);
    expect((await gql({ term: older.id })).data?.explorerRequests).toEqual([
      { id: older.id, referrer: null, parentRequestId: null },
    ]);
    expect((await gql({ term: user.toUpperCase().replace("0X", "0x") })).data?.explorerRequests).toHaveLength(2);
    expect((await gql({ term: `0x${"ab".repeat(32)}` })).data?.explorerRequests).toEqual([]);
  });

  it("refuses an empty term and pages beyond 20", async () => {
    expect((await gql({ term: "  " })).errors?.[0].extensions.code).toBe("INVALID_INPUT");
    expect((await gql({ first: 21 })).errors?.[0].extensions.code).toBe("INVALID_INPUT");
  });

  it("finds a child request (a further deposit) by a term and among the newest, naming its parent", async () => {
    const parent = await insertTestRequest(database.pool);
    const depositor = `0x${randomBytes(20).toString("hex")}`;
    const child = `0x${randomBytes(32).toString("hex")}`;
    await insertChildRequest(database.pool, { id: child, parentId: parent.id, depositor, amountIn: 5n });
    expect((await gql({ term: depositor })).data?.explorerRequests).toEqual([
      { id: child, referrer: null, parentRequestId: parent.id },
    ]);
    expect((await gql({ first: 20 })).data?.explorerRequests.map((request) => request.id)).toContain(child);
  });

  it("narrows the newest by status and by chain (origin or destination), and pages on after a request id", async () => {
    const chainId = 900_000 + Math.floor(Math.random() * 90_000);
    const outbound = await insertTestRequest(database.pool, { originChainId: chainId });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const inbound = await insertTestRequest(database.pool, { destinationChainId: chainId });
    await database.pool.query("UPDATE crossfill.requests SET status = 'refund' WHERE id = $1", [outbound.id]);

    const ids = async (variables: Record<string, unknown>) => {
      const answer = await gql(variables);
      expect(answer.errors).toBeUndefined();
      return answer.data!.explorerRequests.map((request) => request.id);
    };
    expect(await ids({ chainId })).toEqual([inbound.id, outbound.id]);
    expect(await ids({ chainId, status: ["refund"] })).toEqual([outbound.id]);
    expect(await ids({ chainId, status: ["waiting", "success"] })).toEqual([inbound.id]);
    expect(await ids({ chainId, first: 1 })).toEqual([inbound.id]);
    expect(await ids({ chainId, first: 1, after: inbound.id })).toEqual([outbound.id]);
    expect(await ids({ chainId, after: outbound.id })).toEqual([]);
    const unknown = await gql({ after: `0x${"cd".repeat(32)}` });
    expect(unknown.errors?.[0].extensions.code).toBe("INVALID_INPUT");
  });
});
