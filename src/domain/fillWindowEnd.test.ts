import { describe, expect, it } from "vitest";
import { FILL_WINDOW_MS, fillWindowEnd } from "./fillWindowEnd.js";

const deadline = new Date(1_800_000_000_000);

describe("fillWindowEnd", () => {
  it("keeps the window after the deadline for a deposit with no confirmations to wait for", () => {
    const end = fillWindowEnd({
      deadline,
      depositTimestamp: 1_799_999_000n,
      requiredConfirmations: 0,
      blockTimeSeconds: 2,
    });
    expect(end).toBe(deadline.getTime() + FILL_WINDOW_MS);
  });

  it("starts from the deposit's block when it was mined after the deadline, and allows for its confirmations", () => {
    // Broadcast before the deadline, mined 20 minutes after it on a 10-minute chain, one confirmation.
    const minedAt = 1_800_001_200n;
    const end = fillWindowEnd({ deadline, depositTimestamp: minedAt, requiredConfirmations: 1, blockTimeSeconds: 600 });
    expect(end).toBe(Number(minedAt) * 1000 + 6 * 600_000 + FILL_WINDOW_MS);
    expect(end).toBeGreaterThan(deadline.getTime() + 20 * 60_000 + FILL_WINDOW_MS);
    // Two confirmations: two blocks' wait.
    expect(
      fillWindowEnd({ deadline, depositTimestamp: minedAt, requiredConfirmations: 2, blockTimeSeconds: 600 }),
    ).toBe(end + 6 * 600_000);
  });
});
