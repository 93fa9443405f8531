import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseRequestsV2Query } from "../src/gateway/rest/parseRequestsV2Query.js";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { type RequestFilter, emptyFilter } from "./requestFilter.js";
import { insertChildRequest } from "./requests.js";
import { countRequests } from "./countRequests.js";
import { listRequestViews, requestViewsByIds } from "./requestsQuery.js";

describe("request listings and child requests", () => {
  const database = useMigratedDatabase();
  const ids = async (filter: RequestFilter) =>
    (await listRequestViews(database.pool, { filter, sortBy: "createdAt", sortDirection: "asc", limit: 50 })).map(
      (view) => view.id,
    );
  const byId = (id: string, includeChildRequests: boolean): RequestFilter => ({
    ...emptyFilter(),
    conditions: [{ field: "id", negate: false, values: [id] }],
    includeChildRequests,
  });

  it("leaves children out unless asked for; with includeChildRequests an id also lists its children", async () => {
    const parent = await insertTestRequest(database.pool);
    const childId = `0x${randomBytes(32).toString("hex")}`;
    expect(
      await insertChildRequest(database.pool, { id: childId, parentId: parent.id, depositor: "0xabc", amountIn: 5n }),
    ).toBe(true);
    expect(
      await insertChildRequest(database.pool, { id: childId, parentId: parent.id, depositor: "0xabc", amountIn: 5n }),
    ).toBe(false);

    expect(await ids(byId(parent.id, false))).toEqual([parent.id]);
    expect(await ids(byId(parent.id, true))).toEqual([parent.id, childId]);
    expect(await ids(byId(childId, false))).toEqual([]);
    expect(await ids(byId(childId, true))).toEqual([childId]);
    const user = { ...emptyFilter(), conditions: [{ field: "user" as const, negate: false, values: ["0xabc"] }] };
    expect(await ids(user)).toEqual([]);
    expect(await ids({ ...user, includeChildRequests: true })).toEqual([childId]);
    expect(await countRequests(database.pool, byId(parent.id, true))).toBe(2);
    expect(await countRequests(database.pool, byId(parent.id, false))).toBe(1);

    // GET /requests/v2 takes the same flag onto the same filter.
    const v2 = parseRequestsV2Query({ id: [parent.id], includeChildRequests: ["true"] });
    expect(v2.filter.includeChildRequests).toBe(true);
    expect(await ids(v2.filter)).toEqual([parent.id, childId]);
  });

  it("views by id show a child request as any other, and only the ids asked for", async () => {
    const parent = await insertTestRequest(database.pool);
    const childId = `0x${randomBytes(32).toString("hex")}`;
    await insertChildRequest(database.pool, { id: childId, parentId: parent.id, depositor: "0xabc", amountIn: 5n });
    const unknown = `0x${randomBytes(32).toString("hex")}`;

    const views = await requestViewsByIds(database.pool, [childId, unknown]);
    expect(views.map((view) => view.id)).toEqual([childId]);
    expect(views[0]).toMatchObject({ orderId: parent.orderId, amountIn: 5n });
    // The parent's id names the parent alone, never its order's children.
    expect((await requestViewsByIds(database.pool, [parent.id])).map((view) => view.id)).toEqual([parent.id]);
  });
});
