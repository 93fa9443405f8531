import { describe, expect, it } from "vitest";
import { FILL_WINDOW_MS, fillWindowEnd } from "./fillWindowEnd.js";

const deadline = new Date(1_800_000_000_000);

describe("fillWindowEnd", () => {
  it("keeps the window after the deadline for a deposit with no confirmations to wait for", () => {
    expect(fillWindowEnd({ deadline, requiredConfirmations: 0, blockTimeSeconds: 2 })).toBe(
      deadline.getTime() + FILL_WINDOW_MS,
    );
  });

  it("allows six times the expected wait for the deposit's confirmations on its chain", () => {
    const oneBlock = fillWindowEnd({ deadline, requiredConfirmations: 1, blockTimeSeconds: 600 });
    expect(oneBlock).toBe(deadline.getTime() + 60 * 60_000 + FILL_WINDOW_MS);
    // A deposit broadcast in time and mined 20 minutes after the deadline is well inside it.
    expect(oneBlock).toBeGreaterThan(deadline.getTime() + 20 * 60_000 + FILL_WINDOW_MS);
    expect(fillWindowEnd({ deadline, requiredConfirmations: 2, blockTimeSeconds: 600 })).toBe(oneBlock + 60 * 60_000);
  });
});
