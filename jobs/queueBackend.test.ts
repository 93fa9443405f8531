import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
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
      onError: (error) => expect.unreachable(error.message),
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
      const backend = createQueueBackend({
        databaseUrl: db.url,
        redisUrl,
        prefix: `test-close-${db.name}`,
        onError: (error) => expect.unreachable(error.message),
      });
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

describe("queue backend on postgres, losing its connections", () => {
  it("hands connection errors to onError, not to console.error", async () => {
    const db = await createTestDatabase();
    const consoleError = vi.spyOn(console, "error");
    try {
      const errors: string[] = [];
      const backend = createQueueBackend({
        databaseUrl: db.url,
        prefix: `test-lost-${db.name}`,
        onError: (error, source) => errors.push(`${source}: ${error.message}`),
      });
      const queue = backend.createQueue<{ n: number }>("idle");
      let processed = 0;
      const worker = backend.createWorker("idle", async () => {
        processed += 1;
      });
      await worker.waitUntilReady();
      // What a fast shutdown of Postgres does to every session (57P01), a few times and with jobs moving, so
      // that some connections are checked out between two statements of a BullMQ transaction when it comes.
      for (let round = 1; round <= 3; round += 1) {
        // the worker is back on its connections before they are cut again
        const before = processed;
        await vi.waitFor(() => queue.add("idle", { n: -round }), { timeout: 10_000 });
        await vi.waitFor(() => expect(processed).toBeGreaterThan(before), { timeout: 10_000 });
        const adds = Array.from({ length: 20 }, (_, n) => queue.add("idle", { n }).catch(() => undefined));
        const admin = new pg.Client({ connectionString: db.url });
        await admin.connect();
        await admin.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
        );
        await admin.end();
        await Promise.all(adds);
      }
      // Which connections a cut finds open depends on timing; at least one cut finds the worker's.
      await vi.waitFor(() => expect(errors.some((error) => /worker idle: .*terminat/.test(error))).toBe(true), {
        timeout: 10_000,
      });
      await backend.close();
      expect(consoleError).not.toHaveBeenCalled();
    } finally {
      consoleError.mockRestore();
      await db.drop();
    }
  });
});
