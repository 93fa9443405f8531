import { describe, expect, it } from "vitest";
import { createMetrics } from "./createMetrics.js";
import { observeWebhookPoster } from "./observeWebhookPoster.js";

describe("observeWebhookPoster", () => {
  it("observes each attempt by outcome and attempt number and hands the answer on unchanged", async () => {
    const metrics = createMetrics("worker");
    const answers = [{ statusCode: 204 }, { statusCode: 500 }, { error: "ECONNREFUSED" }, { statusCode: 410 }];
    let closed = false;
    const poster = observeWebhookPoster(metrics, {
      post: async () => answers.shift()!,
      close: () => void (closed = true),
    });
    const attempt = (n: number) => ({ "X-Crossfill-Delivery-Attempt": String(n) });
    expect(await poster.post("https://a.example/hook", "{}", attempt(1))).toEqual({ statusCode: 204 });
    expect(await poster.post("https://a.example/hook", "{}", attempt(1))).toEqual({ statusCode: 500 });
    expect(await poster.post("https://a.example/hook", "{}", attempt(2))).toEqual({ error: "ECONNREFUSED" });
    await poster.post("https://a.example/hook", "{}", attempt(3));
    poster.close();
    expect(closed).toBe(true);
    const { values } = await metrics.registry.getSingleMetric("crossfill_webhook_delivery_seconds")!.get();
    const counts = values
      .filter((value) => (value as { metricName?: string }).metricName === "crossfill_webhook_delivery_seconds_count")
      .map((value) => [value.labels.outcome, value.labels.attempt, value.value]);
    expect(counts).toEqual(
      expect.arrayContaining([
        ["delivered", "1", 1],
        ["refused", "1", 1],
        ["no_answer", "2", 1],
        ["gone", "3", 1],
      ]),
    );
    expect(counts).toHaveLength(4);
  });
});
