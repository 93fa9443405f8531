import { describe, expect, it } from "vitest";
import { WEBHOOK_MAX_RETRIES, webhookRetryDelay } from "./webhookRetryDelay.js";

const total = (random: () => number) =>
  Array.from({ length: WEBHOOK_MAX_RETRIES }, (_, i) => webhookRetryDelay(i + 1, undefined, random)).reduce(
    (a, b) => a + b,
    0,
  );

describe("webhookRetryDelay", () => {
  it("grows exponentially from one minute", () => {
    expect(webhookRetryDelay(1, undefined, () => 0.5)).toBe(60_000);
    expect(webhookRetryDelay(2, undefined, () => 0.5)).toBe(132_000);
    expect(webhookRetryDelay(10, undefined, () => 0.5)).toBeGreaterThan(19 * 3600_000);
  });

  it("spreads ten retries over at least 24 hours whatever the jitter", () => {
    expect(total(() => 0)).toBeGreaterThan(24 * 3600_000);
    expect(total(() => 0.999)).toBeLessThan(48 * 3600_000);
  });

  it("jitters within ±20 %", () => {
    expect(webhookRetryDelay(3, 1000, () => 0)).toBe(Math.round(1000 * 2.2 ** 2 * 0.8));
    expect(webhookRetryDelay(3, 1000, () => 1)).toBe(Math.round(1000 * 2.2 ** 2 * 1.2));
  });
});
