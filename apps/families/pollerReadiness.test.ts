import { describe, expect, it } from "vitest";
import type { PollerHealth } from "../../indexers/poller/startPoller.js";
import { pollerReadiness } from "./pollerReadiness.js";

const signal = new AbortController().signal;
const base: PollerHealth = { chainId: 9, head: null, cursor: null, lag: null, lastSuccessAt: null, lastError: null };

describe("pollerReadiness", () => {
  it("follows each poller's newest pass: none yet, a success, a failure after it, a success again", async () => {
    let health = base;
    const [check] = pollerReadiness(() => [health]);
    expect(check!.name).toBe("chain 9");
    await expect(check!.check(signal)).rejects.toThrow(/not read the chain yet/);
    health = { ...base, head: 12, cursor: 11, lag: 1, lastSuccessAt: new Date(1_000) };
    await expect(check!.check(signal)).resolves.toBe("head 12, lag 1");
    health = { ...health, lastError: { message: "esplora down", at: new Date(2_000) } };
    await expect(check!.check(signal)).rejects.toThrow(/last read failed/);
    health = { ...health, lastSuccessAt: new Date(3_000) };
    await expect(check!.check(signal)).resolves.toBe("head 12, lag 1");
  });
});
