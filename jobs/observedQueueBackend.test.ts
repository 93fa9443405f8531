import { describe, expect, it, vi } from "vitest";
import { observedQueueBackend } from "./observedQueueBackend.js";
import type { QueueBackend } from "./queueBackend.js";

describe("observedQueueBackend", () => {
  it("hands every queue it creates to the observer and leaves the rest of the backend as it is", async () => {
    const queue = { name: "crossfill-fill", getJobCounts: async () => ({}) };
    const backend = {
      kind: "redis",
      createQueue: vi.fn(() => queue),
      createWorker: vi.fn(),
      close: vi.fn(async () => undefined),
    } as unknown as QueueBackend;
    const watch = vi.fn();
    const observed = observedQueueBackend(backend, { watch });
    expect(observed.createQueue("crossfill-fill")).toBe(queue);
    expect(watch).toHaveBeenCalledWith(queue);
    expect(observed.kind).toBe("redis");
    await observed.close();
    expect(backend.close).toHaveBeenCalled();
  });
});
