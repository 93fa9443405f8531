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
    const backend = createQueueBackend({
      databaseUrl: db.url,
      redisUrl: kind === "redis" ? redisUrl : undefined,
      prefix: `test-${db.name}`,
    });
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

describe("queue backend on redis, closing", () => {
  it("leaves no Redis connection open after close", async () => {
    const db = await createTestDatabase();
    try {
      const backend = createQueueBackend({ databaseUrl: db.url, redisUrl, prefix: `test-close-${db.name}` });
      backend.createQueue("idle");
      const worker = backend.createWorker("idle", async () => undefined);
      await worker.waitUntilReady();
      await backend.close();
      // a quit socket ends on the server's reply, a moment after quit() resolves
      await new Promise((resolve) => setTimeout(resolve, 300));
      const handles = (
        process as unknown as { _getActiveHandles(): Array<{ remotePort?: number; destroyed?: boolean }> }
      )._getActiveHandles();
      const open = handles.filter(
        (handle) => handle.remotePort === Number(new URL(redisUrl).port || 6379) && !handle.destroyed,
      );
      expect(open).toEqual([]);
    } finally {
      await db.drop();
    }
  });
});
