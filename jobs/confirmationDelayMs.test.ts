import { describe, expect, it } from "vitest";
import { confirmationDelayMs } from "./confirmationDelayMs.js";

describe("confirmationDelayMs", () => {
  it("waits the missing blocks' time, never less than 200 ms", () => {
    const adapter = (blockTimeSeconds: number) => ({ chain: { blockTimeSeconds } }) as never;
    expect(confirmationDelayMs(adapter(12), 3)).toBe(36_000);
    expect(confirmationDelayMs(adapter(0.25), 1)).toBe(250);
    expect(confirmationDelayMs(adapter(0.1), 1)).toBe(200);
  });
});
