import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../test/support/testDatabase.js";
import { createQueueBackend } from "./queueBackend.js";

const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

describe.each(["redis", "postgres"] as const)("queue backend on %s", (kind) => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it("processes jobs once per job id and closes cleanly", async () => {
    const backend = createQueueBackend({ databaseUrl: db.url, redisUrl: kind === "redis" ? redisUrl : undefined, prefix: `test-${db.name}` });
    expect(backend.kind).toBe(kind);
    const seen: string[] = [];
    const done = new Promise<void>((resolve) => {
      backend.createWorker<{ value: string }>("echo", async (job) => {
        seen.push(job.data.value);
        if (seen.length === 2) resolve();
      });
    });
    const queue = backend.createQueue<{ value: string }>("echo");
    await queue.add("echo", { value: "a" }, { jobId: "same" });
    await queue.add("echo", { value: "a-again" }, { jobId: "same" });
    await queue.add("echo", { value: "b" }, { jobId: "other" });
    await done;
    expect(seen.sort()).toEqual(["a", "b"]);
    await backend.close();
  });
});
