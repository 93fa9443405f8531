import { describe, expect, it } from "vitest";
import { createTestGraphqlServer } from "../../../../test/support/createTestGraphqlServer.js";
import { useMigratedDatabase } from "../../../../test/support/useMigratedDatabase.js";
import { createApiKey } from "../../../apiKeys/createApiKey.js";
import { createStatusBus } from "../../../events/createStatusBus.js";
import { createStatusFanout } from "../../../events/createStatusFanout.js";
import { createPostgresRateLimiter } from "../../http/rateLimiter.js";

describe("sharedFieldLimits", () => {
  const database = useMigratedDatabase();

  it("charges every requests field to the key's GET /requests/v3 budget, and nothing else", async () => {
    const bus = createStatusBus();
    const fanout = createStatusFanout(bus);
    const listing = { name: "requests-v3", windowSeconds: 60, anonymous: 0, standard: 3, elevated: 6 };
    const deps = {
      limiter: createPostgresRateLimiter(database.pool),
      now: () => new Date("2026-11-23T10:00:30Z"),
      trustForwardedFor: false,
    };
    const server = createTestGraphqlServer({
      db: database.pool,
      statusUpdates: fanout,
      fieldLimits: { deps, byField: { requests: listing } },
    });
    const [mine, other] = [
      await createApiKey(database.pool, Buffer.alloc(32, 1), { name: "mine" }),
      await createApiKey(database.pool, Buffer.alloc(32, 1), { name: "other" }),
    ];
    const gql = async (query: string, key: string) => {
      const response = await server.fetch(
        new Request("http://localhost/graphql", {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": key },
          body: JSON.stringify({ query }),
        }),
      );
      const body = (await response.json()) as { errors?: Array<{ message: string; extensions: { code: string } }> };
      return body.errors?.[0]?.extensions.code ?? "ok";
    };
    try {
      const twoPages = "{ a: requests(first: 1) { edges { cursor } } b: requests(first: 2) { edges { cursor } } }";
      expect(await gql(twoPages, mine.key)).toBe("ok");
      expect(await gql("{ chains { id } }", mine.key)).toBe("ok"); // not charged
      expect(await gql("{ requests(first: 1) { edges { cursor } } }", mine.key)).toBe("ok");
      expect(await gql("{ requests(first: 1) { edges { cursor } } }", mine.key)).toBe("RATE_LIMITED");
      expect(await gql("{ chains { id } }", mine.key)).toBe("ok");
      expect(await gql(twoPages, other.key)).toBe("ok");
    } finally {
      await server.close();
      fanout.close();
      await bus.close();
    }
  });
});
