import type { EndpointGatePolicy } from "./createEndpointGate.js";
import type { Config } from "../src/config.js";

export type WebhookDeliveryLimits = { endpoints: EndpointGatePolicy; connectTimeoutMs: number };

/** The worker's webhook limits per endpoint, from WEBHOOK_CONCURRENCY_PER_ENDPOINT, WEBHOOK_BREAKER_* and WEBHOOK_CONNECT_TIMEOUT_MS. */
export function webhookDeliveryLimits(config: Config): WebhookDeliveryLimits {
  return {
    endpoints: {
      concurrency: config.WEBHOOK_CONCURRENCY_PER_ENDPOINT,
      breakerFailures: config.WEBHOOK_BREAKER_FAILURES,
      breakerCooldownMs: config.WEBHOOK_BREAKER_COOLDOWN_MS,
    },
    connectTimeoutMs: config.WEBHOOK_CONNECT_TIMEOUT_MS,
  };
}
