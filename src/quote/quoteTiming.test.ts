import { describe, expect, it } from "vitest";
import { quoteTiming } from "./quoteTiming.js";

describe("quoteTiming", () => {
  it("gives a fast chain's quote the configured lifetime and a few seconds' estimate", () => {
    expect(
      quoteTiming({ ttlSeconds: 600, originBlockTimeSeconds: 2, destinationBlockTimeSeconds: 2, confirmations: 0 }),
    ).toEqual({ lifetimeSeconds: 602, timeEstimate: 5 });
  });

  it("follows Bitcoin's blocks: one more block to be seen in, and the confirmation tier's wait in the estimate", () => {
    const bitcoin = { ttlSeconds: 600, originBlockTimeSeconds: 600, destinationBlockTimeSeconds: 2 };
    expect(quoteTiming({ ...bitcoin, confirmations: 1 })).toEqual({ lifetimeSeconds: 1200, timeEstimate: 603 });
    expect(quoteTiming({ ...bitcoin, confirmations: 2 })).toEqual({ lifetimeSeconds: 1200, timeEstimate: 1203 });
  });
});
