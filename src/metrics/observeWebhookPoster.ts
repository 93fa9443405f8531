import { Histogram } from "prom-client";
import type { WebhookPoster } from "../webhooks/postWebhook.js";
import type { Metrics } from "./createMetrics.js";

/** A receiver answering at once to one timing out after WEBHOOK_TIMEOUT_MS. */
const WEBHOOK_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** The header the webhook processor numbers its attempts with (1 is the first delivery, then each retry). */
const ATTEMPT_HEADER = "X-Crossfill-Delivery-Attempt";

/** What one POST came to: delivered (2xx), gone (410: the endpoint is disabled), another status, or no answer. */
function outcomeOf(response: Awaited<ReturnType<WebhookPoster["post"]>>): string {
  if ("error" in response) return "no_answer";
  if (response.statusCode >= 200 && response.statusCode < 300) return "delivered";
  if (response.statusCode === 410) return "gone";
  return "refused";
}

/**
 * The poster with every delivery attempt observed: latency by outcome and attempt number (bounded: the processor
 * gives up after WEBHOOK_MAX_RETRIES). The histogram's _count is the attempts by outcome.
 */
export function observeWebhookPoster(metrics: Metrics, poster: WebhookPoster): WebhookPoster {
  const seconds = new Histogram({
    name: "crossfill_webhook_delivery_seconds",
    help: "Webhook delivery attempts by outcome (delivered, refused, gone, no_answer) and attempt number, with latency",
    labelNames: ["outcome", "attempt"] as const,
    buckets: WEBHOOK_BUCKETS,
    registers: [metrics.registry],
  });
  return {
    async post(url, body, headers) {
      const started = performance.now();
      const response = await poster.post(url, body, headers);
      seconds.observe(
        { outcome: outcomeOf(response), attempt: headers[ATTEMPT_HEADER] ?? "" },
        (performance.now() - started) / 1000,
      );
      return response;
    },
    close: () => poster.close(),
  };
}
