import { describe, expect, it } from "vitest";
import { movedDepositTaken } from "./movedDepositTaken.js";

describe("movedDepositTaken", () => {
  it("records the deposit as reorged out of the block it was applied in, for the job that found it", () => {
    const record = movedDepositTaken(
      { blockNumber: 11n, blockHash: "0xabc" },
      { source: "fill-check", action: "fill" },
    );
    expect(record).toEqual({
      detectedAt: expect.any(Number),
      source: "fill-check",
      reason: "deposit mined in another block",
      failReason: "DEPOSIT_REORGED",
      action: "fill",
      blockNumber: 11,
      blockHash: "0xabc",
    });
  });
});
