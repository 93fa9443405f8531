import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEBUG_FORCE_REFUND_REFERRER } from "../jobs/createFillProcessor.js";
import { createApiKey } from "../src/apiKeys/createApiKey.js";
import { type Metrics, createMetrics } from "../src/metrics/createMetrics.js";
import { pollStatus } from "./support/pollStatus.js";
import { postGraphql } from "./support/postGraphql.js";
import { postBridgeQuote } from "./support/postQuote.js";
import { quoteWithKey } from "./support/quoteWithKey.js";
import { sendSteps } from "./support/sendSteps.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";

/** The sum of a series' samples whose labels include `labels` (a histogram's _count or _sum by its full name). */
async function total(metrics: Metrics, name: string, labels: Record<string, string> = {}): Promise<number> {
  const base = name.replace(/_(sum|count|bucket)$/, "");
  const metric = metrics.registry.getSingleMetric(base);
  if (!metric) return 0;
  const { values } = await metric.get();
  return values
    .filter((value) => ((value as { metricName?: string }).metricName ?? base) === name)
    .filter((value) => Object.entries(labels).every(([key, wanted]) => String(value.labels[key]) === wanted))
    .reduce((sum, value) => sum + value.value, 0);
}

/**
 * What the worker and the gateway observe of a bridge and a refund: status transitions, deposit latencies, fills by
 * outcome, refunds, webhook deliveries and GraphQL createQuote outcomes, read from the registries their /metrics serve.
 */
describe("the worker's and the gateway's metrics follow a bridge and a refund", () => {
  let stack: TestStack;
  const worker = createMetrics("worker");
  const api = createMetrics("api");
  let receiver: http.Server;

  beforeAll(async () => {
    stack = await startTestStack({ metrics: { worker, api } });
    receiver = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.statusCode = 204;
        res.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    receiver?.closeAllConnections();
    receiver?.close();
    await stack?.stop();
  });

  it("counts the transitions, latencies, fills, refunds, deliveries and createQuote outcomes as they happen", async () => {
    const [origin, destination] = stack.devnet.chains;
    const pair = { origin_chain_id: String(origin.id), destination_chain_id: String(destination.id) };
    const transitions = (from: string, to: string) =>
      total(worker, "crossfill_status_transitions_total", { from, to, ...pair });
    const read = async () => ({
      toPending: await transitions("waiting", "pending"),
      toSuccess: await transitions("pending", "success"),
      toSubmittedSuccess: await transitions("submitted", "success"),
      toFailure: await transitions("pending", "failure"),
      toRefund: await transitions("failure", "refund"),
      pendingLatency: await total(worker, "crossfill_deposit_to_pending_seconds_count", pair),
      successLatency: await total(worker, "crossfill_deposit_to_success_seconds_count", pair),
      filled: await total(worker, "crossfill_fills_total", { outcome: "filled" }),
      failed: await total(worker, "crossfill_fills_total", { outcome: "failed", failReason: "MANUAL_ADMIN_REFUND" }),
      refunded: await total(worker, "crossfill_refunds_total", { failReason: "MANUAL_ADMIN_REFUND" }),
      delivered: await total(worker, "crossfill_webhook_delivery_seconds_count", {
        outcome: "delivered",
        attempt: "1",
      }),
      graphqlQuoted: await total(api, "crossfill_quotes_total", { endpoint: "graphql createQuote", outcome: "quoted" }),
      graphqlRefused: await total(api, "crossfill_quotes_total", {
        endpoint: "graphql createQuote",
        outcome: "refused",
      }),
    });
    const before = await read();

    // A bridge quoted over GraphQL with a key whose webhook receives its status changes…
    const key = await createApiKey(stack.pool, stack.serverKey, { name: "metrics-e2e" });
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const set = await postGraphql(
      stack.api.url,
      `mutation ($url: String!) { setWebhook(url: $url) { url } }`,
      { url },
      key.key,
    );
    expect(set.errors).toBeUndefined();
    const user = stack.devnet.accounts[2]!;
    const bridged = await quoteWithKey(stack.api.url, key.key, { user, recipient: user, origin, destination });
    await sendSteps(bridged, user, origin);
    await pollStatus(stack.api.url, bridged.requestId, { until: ["success"], timeoutMs: 60_000 });
    // …a createQuote refused for its amount…
    const refused = await postGraphql(
      stack.api.url,
      `mutation ($input: CreateQuoteInput!) { createQuote(input: $input) { requestId } }`,
      {
        input: {
          user: user.address,
          originChainId: origin.id,
          destinationChainId: destination.id,
          originCurrency: "0x0000000000000000000000000000000000000000",
          destinationCurrency: "0x0000000000000000000000000000000000000000",
          amount: "0",
          tradeType: "EXACT_INPUT",
        },
      },
    );
    expect(refused.errors?.length).toBe(1);
    // …and a deposit the devnet's debug referrer sends back.
    const forced = await postBridgeQuote(stack.api.url, user, { origin, destination }, 10n ** 16n, {
      referrer: DEBUG_FORCE_REFUND_REFERRER,
    });
    await sendSteps(forced.body, user, origin);
    await pollStatus(stack.api.url, forced.body.requestId, { until: ["refund"], timeoutMs: 60_000 });

    // The worker counts from the outbox a moment after the change: wait for the refund, the last of them.
    const deadline = Date.now() + 20_000;
    let after = await read();
    while ((after.toRefund === before.toRefund || after.delivered - before.delivered < 4) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = await read();
    }
    const moved = Object.fromEntries(
      Object.entries(after).map(([name, value]) => [name, value - before[name as keyof typeof before]]),
    );
    expect(moved).toMatchObject({
      toPending: 2,
      toFailure: 1,
      toRefund: 1,
      pendingLatency: 2,
      successLatency: 1,
      filled: 1,
      failed: 1,
      refunded: 1,
      graphqlQuoted: 1,
      graphqlRefused: 1,
    });
    // The bridge succeeded from pending or, after its fill was sent, from submitted.
    expect(moved.toSuccess! + moved.toSubmittedSuccess!).toBe(1);
    // waiting, pending, (submitted,) success of the bridge, each delivered at its first attempt.
    expect(moved.delivered).toBeGreaterThanOrEqual(3);
    expect(await total(worker, "crossfill_refunds_open", { status: "queued" })).toBe(0);
    // The solver's inventory as the worker stored it (read at start and after each fill).
    const solverEther = { chain_id: String(destination.id), currency: "ETH" };
    expect(await total(worker, "crossfill_solver_balance", solverEther)).toBeGreaterThan(0);
    expect(await total(worker, "crossfill_solver_owed", solverEther)).toBe(0);
    expect(await worker.registry.metrics()).toContain("crossfill_refunds_open");
  }, 120_000);
});
