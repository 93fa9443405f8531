import { describe, expect, it } from "vitest";
import { DEFAULT_ENDPOINT_GATE_POLICY } from "./createEndpointGate.js";
import { parseConfig } from "../src/config.js";
import { WEBHOOK_CONNECT_TIMEOUT_MS } from "../src/webhooks/postWebhook.js";
import { webhookDeliveryLimits } from "./webhookDeliveryLimits.js";

describe("webhookDeliveryLimits", () => {
  it("defaults to the documented limits and reads each setting", () => {
    expect(webhookDeliveryLimits(parseConfig({}))).toEqual({
      endpoints: DEFAULT_ENDPOINT_GATE_POLICY,
      connectTimeoutMs: WEBHOOK_CONNECT_TIMEOUT_MS,
    });
    const config = parseConfig({
      WEBHOOK_CONCURRENCY_PER_ENDPOINT: "2",
      WEBHOOK_BREAKER_FAILURES: "3",
      WEBHOOK_BREAKER_COOLDOWN_MS: "1000",
      WEBHOOK_CONNECT_TIMEOUT_MS: "500",
    });
    expect(webhookDeliveryLimits(config)).toEqual({
      endpoints: { concurrency: 2, breakerFailures: 3, breakerCooldownMs: 1000 },
      connectTimeoutMs: 500,
    });
    expect(() => parseConfig({ WEBHOOK_CONCURRENCY_PER_ENDPOINT: "0" })).toThrow(/WEBHOOK_CONCURRENCY_PER_ENDPOINT/);
  });
});
