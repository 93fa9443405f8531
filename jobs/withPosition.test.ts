import { describe, expect, it } from "vitest";
import type { SweepJob, UnmatchedRefundJob } from "./queues.js";
import { withPosition } from "./withPosition.js";

describe("withPosition", () => {
  it("keeps a payload that names its position", () => {
    const job: SweepJob = { chainId: 8253038, txHash: "aa", position: 2, requestId: "0x1" };
    expect(withPosition(job)).toEqual(job);
  });

  it("reads a payload queued before the rename (logIndex) as its position, keeping nothing of the old key", () => {
    const legacy = { chainId: 8253038, txHash: "bb", logIndex: 3 };
    expect(withPosition<UnmatchedRefundJob>(legacy)).toEqual({ chainId: 8253038, txHash: "bb", position: 3 });
    expect(withPosition<UnmatchedRefundJob>({ ...legacy, logIndex: 0 }).position).toBe(0);
  });
});
