import { zeroAddress } from "viem";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../src/apiKeys/createApiKey.js";
import { verifyWebhookSignature } from "../src/webhooks/signWebhook.js";
import { setWebhook } from "../src/webhooks/setWebhook.js";
import { type CrashCluster, type Role, checkInvariants, startCrashCluster } from "./support/crashCluster.js";
import { pollStatus } from "./support/pollStatus.js";
import { postQuote } from "./support/postQuote.js";
import { harmlessCall, revertCallsBeforeFill } from "./support/revertingCalls.js";
import { route } from "./support/route.js";
import { sendSteps } from "./support/sendSteps.js";

/**
 * The short crash harness: each role is SIGKILLed at a step of the flow and started again; the intent
 * still ends right and the money invariants hold over everything. How fast it recovers is a benchmark's figure
 * (`npm run bench -- crash`, target 20 s), not asserted here: a loaded CI machine would make it flaky.
 */
describe("crash safety", () => {
  let cluster: CrashCluster;
  beforeAll(async () => {
    cluster = await startCrashCluster();
  }, 180_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  async function intent(account: number, options: { failing?: boolean } = {}) {
    const [origin, destination] = cluster.devnet.chains;
    const value = 10n ** 16n;
    const quote = await postQuote(cluster.apiUrl, {
      user: cluster.devnet.accounts[account].address,
      ...route(origin, destination),
      amount: value.toString(),
      tradeType: options.failing ? "EXACT_OUTPUT" : "EXACT_INPUT",
      ...(options.failing
        ? { txs: [harmlessCall(destination.callTarget, cluster.devnet.accounts[account].address)] }
        : {}),
    });
    expect(quote.status).toBe(200);
    if (options.failing) await revertCallsBeforeFill(cluster.pool, quote.body.requestId, destination.callTarget);
    return {
      quote: quote.body,
      requestId: quote.body.requestId as string,
      send: () => sendSteps(quote.body, cluster.devnet.accounts[account], origin),
    };
  }

  const scenarios: Array<{
    name: string;
    role: Role;
    at: "after deposit" | "after quote" | "submitted" | "failure";
    failing?: boolean;
  }> = [
    { name: "the worker, right after the deposit", role: "worker", at: "after deposit" },
    { name: "the worker, after the fill is sent", role: "worker", at: "submitted" },
    { name: "the indexer, right after the deposit", role: "indexer", at: "after deposit" },
    { name: "the gateway, between quote and deposit", role: "api", at: "after quote" },
    { name: "the worker, during the refund", role: "worker", at: "failure", failing: true },
  ];

  it.each(scenarios.map((scenario, index) => [scenario.name, scenario, index] as const))(
    "recovers when %s is killed",
    async (_name, scenario, index) => {
      const { requestId, send } = await intent(index % 5, { failing: scenario.failing });
      if (scenario.at === "after quote") await cluster.crash(scenario.role);
      await send();
      if (scenario.at === "submitted" || scenario.at === "failure")
        await pollStatus(cluster.apiUrl, requestId, { until: [scenario.at, "success", "refund"] });
      if (scenario.at !== "after quote") await cluster.crash(scenario.role);
      const { last } = await pollStatus(cluster.apiUrl, requestId, {
        until: ["success", "refund"],
        timeoutMs: 60_000,
        intervalMs: 100,
      });
      expect(last.status).toBe(scenario.failing ? "refund" : "success");
    },
  );

  it("recovers when the worker is killed during a webhook delivery: every event delivered at least once, de-duplicable by event id", async () => {
    const key = await createApiKey(cluster.pool, cluster.serverKey, { name: "crash-webhooks" });
    const answered: Array<{ eventId: string; status: string; at: number }> = [];
    let held: () => void = () => undefined;
    const heldOpen = new Promise<void>((resolve) => (held = resolve));
    let holdNext = true;
    const receiver = http.createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        const eventId = req.headers["x-crossfill-event-id"] as string;
        if (
          !verifyWebhookSignature(
            key.key,
            req.headers["x-signature-timestamp"] as string,
            body,
            req.headers["x-signature-sha256"] as string,
          )
        ) {
          res.statusCode = 401;
          return res.end();
        }
        // The first post is never answered: the worker is killed while it waits.
        if (holdNext) {
          holdNext = false;
          return held();
        }
        answered.push({ eventId, status: JSON.parse(body).data.status, at: Date.now() });
        res.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      await setWebhook(
        cluster.pool,
        { allowPrivate: true },
        {
          apiKeyId: key.id,
          url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`,
          enabled: true,
          headers: {},
        },
      );
      const [origin, destination] = cluster.devnet.chains;
      const account = cluster.devnet.accounts[2];
      const response = await fetch(`${cluster.apiUrl}/quote/v2`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": key.key },
        body: JSON.stringify({
          user: account.address,
          originChainId: origin.id,
          destinationChainId: destination.id,
          originCurrency: zeroAddress,
          destinationCurrency: zeroAddress,
          amount: (10n ** 16n).toString(),
          tradeType: "EXACT_INPUT",
        }),
      });
      const quote = await response.json();
      expect(response.status).toBe(200);
      await heldOpen;
      await cluster.crash("worker");
      await sendSteps(quote, account, origin);
      await pollStatus(cluster.apiUrl, quote.requestId, { until: ["success"], timeoutMs: 60_000, intervalMs: 100 });
      const { rows } = await cluster.pool.query<{ id: string; to_status: string }>(
        "SELECT id::text, to_status FROM crossfill.status_events WHERE request_id = $1 ORDER BY id",
        [quote.requestId],
      );
      const expected = rows.map((row) => `evt_${row.id}`);
      const deadline = Date.now() + 60_000;
      while (!expected.every((id) => answered.some((a) => a.eventId === id)) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      // At least once, and once de-duplicated on the event id: exactly the request's events, in order.
      const firstSeen = [...new Map(answered.map((a) => [a.eventId, a] as const)).values()];
      expect(firstSeen.map((a) => a.eventId)).toEqual(expected);
      expect(firstSeen.map((a) => a.status)).toEqual(rows.map((row) => row.to_status));
      expect(firstSeen.at(-1)?.status).toBe("success");
    } finally {
      receiver.closeAllConnections();
      receiver.close();
    }
  });

  it("keeps every money invariant over all of it", async () => {
    // the notifier publishes on its own tick; give it a moment after the last change
    let problems: string[] = [];
    for (let tries = 0; tries < 20; tries += 1) {
      problems = await checkInvariants(cluster);
      if (problems.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(problems).toEqual([]);
  });
});
