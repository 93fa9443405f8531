import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../src/apiKeys/createApiKey.js";
import { type CrashCluster, startCrashCluster } from "./support/crashCluster.js";
import { type PrometheusFamily, parsePrometheusText } from "./support/parsePrometheusText.js";
import { postGraphql } from "./support/postGraphql.js";
import { postBridgeQuote } from "./support/postQuote.js";
import { quoteWithKey } from "./support/quoteWithKey.js";
import { sendSteps } from "./support/sendSteps.js";
import { type WebhookReceiver, startWebhookReceiver } from "./support/startWebhookReceiver.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Page = { families: Map<string, PrometheusFamily>; role: string };

/** GET /metrics over HTTP, checked as Prometheus would read it (parsePrometheusText throws on a broken page). */
async function scrape(url: string, role: string): Promise<Page> {
  const response = await fetch(`${url}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  const families = parsePrometheusText(await response.text());
  // Every series carries its role (docs/OPERATIONS.md).
  for (const family of families.values())
    for (const sample of family.samples) expect([sample.name, sample.labels.role]).toEqual([sample.name, role]);
  return { families, role };
}

/** The sum of the samples named `name` whose labels include `labels` (0 when the page has none yet). */
function sum(page: Page, name: string, labels: Record<string, string> = {}): number {
  const base = name.replace(/_(bucket|sum|count)$/, "");
  // A histogram's _count is in its base's family; a counter is its own.
  const family = page.families.get(base) ?? page.families.get(name);
  return (family?.samples ?? [])
    .filter((sample) => sample.name === name)
    .filter((sample) => Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
    .reduce((total, sample) => total + sample.value, 0);
}

/** Scrapes until `done` holds of the page (a worker counts from the outbox, a poller reads on its timer). */
async function scrapeUntil(url: string, role: string, done: (page: Page) => boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const page = await scrape(url, role);
    if (done(page) || Date.now() > deadline) return page;
    await sleep(200);
  }
}

/**
 * `crossfill api`, `crossfill worker`, `crossfill indexer evm` and a poller role (`crossfill indexer bitcoin`) as an
 * operator runs them: each one's `/metrics` scraped over HTTP before and after one EVM → EVM bridge, every page valid
 * exposition text, and the series docs/OPERATIONS.md lists moved by what the bridge did.
 */
describe("/metrics of each role around a bridge", () => {
  let cluster: CrashCluster;
  let receiver: WebhookReceiver | undefined;
  beforeAll(async () => {
    cluster = await startCrashCluster({ bitcoinPoller: true });
  }, 240_000);
  afterAll(async () => {
    receiver?.close();
    await cluster?.stop();
  });

  it("counts the quote, the requests, the transitions, the fill, the deliveries, the balance and the heads", async () => {
    const [origin, destination] = cluster.devnet.chains;
    const bitcoin = cluster.bitcoin!;
    const workerUrl = cluster.workerHealthUrls[0]!;
    const pair = { origin_chain_id: String(origin.id), destination_chain_id: String(destination.id) };
    const solverEther = { chain_id: String(destination.id), currency: "ETH" };
    const btcChain = { chain_id: String(bitcoin.chainId) };
    // The poller has read the devnet Bitcoin once and recorded its head, so what moves next is what this test mined.
    const pollerBefore = await scrapeUntil(
      bitcoin.healthUrl,
      "indexer",
      (page) =>
        sum(page, "crossfill_poller_last_success_timestamp_seconds", btcChain) > 0 &&
        page.families.get("crossfill_poller_lag")!.samples.length > 0,
    );
    const workerBefore = await scrapeUntil(
      workerUrl,
      "worker",
      (page) =>
        sum(page, "crossfill_solver_balance", solverEther) > 0 &&
        sum(page, "crossfill_chain_indexed_head", btcChain) ===
          sum(pollerBefore, "crossfill_poller_source_head", btcChain) -
            sum(pollerBefore, "crossfill_poller_lag", btcChain),
    );
    const apiBefore = await scrape(cluster.apiUrl, "api");

    // A bridge quoted over GraphQL with a key whose webhook receives its changes, one REST quote refused, its status
    // polled a counted number of times, and three Bitcoin blocks for the poller.
    const key = await createApiKey(cluster.pool, cluster.serverKey, { name: "metrics-scrape" });
    receiver = await startWebhookReceiver(key.key);
    const set = await postGraphql(
      cluster.apiUrl,
      `mutation ($url: String!) { setWebhook(url: $url) { url } }`,
      { url: receiver.url },
      key.key,
    );
    expect(set.errors).toBeUndefined();
    const user = cluster.devnet.accounts[1]!;
    const bridged = await quoteWithKey(cluster.apiUrl, key.key, { user, recipient: user, origin, destination });
    const refused = await postBridgeQuote(cluster.apiUrl, user, { origin, destination }, 0n);
    expect(refused.status).toBe(400);
    await sendSteps(bridged, user, origin);
    bitcoin.devnet.mine(3);
    let polls = 0;
    for (let status = ""; status !== "success"; await sleep(100)) {
      const response = await fetch(`${cluster.apiUrl}/intents/status/v3?requestId=${bridged.requestId}`);
      expect(response.status).toBe(200);
      polls += 1;
      status = ((await response.json()) as { status: string }).status;
      expect(["waiting", "pending", "submitted", "success"]).toContain(status);
      expect(polls).toBeLessThan(600);
    }
    const { rows: events } = await cluster.pool.query<{ from_status: string | null; to_status: string }>(
      "SELECT from_status, to_status FROM crossfill.status_events WHERE request_id = $1 ORDER BY id",
      [bridged.requestId],
    );
    const {
      rows: [request],
    } = await cluster.pool.query<{ fill_amount: string }>("SELECT fill_amount FROM crossfill.requests WHERE id = $1", [
      bridged.requestId,
    ]);

    // The gateway: its own requests, counted as they were served.
    const apiAfter = await scrape(cluster.apiUrl, "api");
    const apiMoved = (name: string, labels: Record<string, string>) =>
      sum(apiAfter, name, labels) - sum(apiBefore, name, labels);
    const served = (route: string, method: string, status: string) =>
      apiMoved("crossfill_http_request_duration_seconds_count", { route, method, status });
    expect({
      quoted: apiMoved("crossfill_quotes_total", { endpoint: "graphql createQuote", outcome: "quoted", errorCode: "" }),
      refused: apiMoved("crossfill_quotes_total", {
        endpoint: "/quote/v2",
        outcome: "refused",
        errorCode: refused.body.errorCode,
      }),
      failed: apiMoved("crossfill_quotes_total", { outcome: "failed" }),
      graphql: served("/graphql", "POST", "200"),
      refusedQuote: served("/quote/v2", "POST", "400"),
      statusPolls: served("/intents/status/v3", "GET", "200"),
      // The first scrape is observed once it has been answered: the second page counts it.
      scrapes: served("/metrics", "GET", "200"),
      fiveHundreds: apiMoved("crossfill_http_request_duration_seconds_count", { status: "500" }),
    }).toEqual({
      quoted: 1,
      refused: 1,
      failed: 0,
      graphql: 2,
      refusedQuote: 1,
      statusPolls: polls,
      scrapes: 1,
      fiveHundreds: 0,
    });
    // Every request went into the histogram's +Inf bucket and its sum (latency > 0).
    expect(
      sum(apiAfter, "crossfill_http_request_duration_seconds_bucket", { route: "/intents/status/v3", le: "+Inf" }) -
        sum(apiBefore, "crossfill_http_request_duration_seconds_bucket", { route: "/intents/status/v3", le: "+Inf" }),
    ).toBe(polls);
    expect(
      sum(apiAfter, "crossfill_http_request_duration_seconds_sum", { route: "/intents/status/v3" }),
    ).toBeGreaterThan(sum(apiBefore, "crossfill_http_request_duration_seconds_sum", { route: "/intents/status/v3" }));
    expect(sum(apiAfter, "crossfill_pg_pool_connections")).toBeGreaterThan(0);

    // The worker: what it read from the outbox, the fill, its deliveries, the solver's balance after the fill.
    const workerAfter = await scrapeUntil(
      workerUrl,
      "worker",
      (page) =>
        sum(page, "crossfill_deposit_to_success_seconds_count", pair) >
          sum(workerBefore, "crossfill_deposit_to_success_seconds_count", pair) &&
        sum(page, "crossfill_webhook_delivery_seconds_count") -
          sum(workerBefore, "crossfill_webhook_delivery_seconds_count") >=
          events.length &&
        sum(page, "crossfill_solver_balance", solverEther) <
          sum(workerBefore, "crossfill_solver_balance", solverEther) &&
        sum(page, "crossfill_chain_indexed_head", btcChain) >=
          sum(workerBefore, "crossfill_chain_indexed_head", btcChain) + 3,
    );
    const workerMoved = (name: string, labels: Record<string, string> = {}) =>
      sum(workerAfter, name, labels) - sum(workerBefore, name, labels);
    // Each change in the outbox counted once under its from/to and chain pair, and nothing else for the pair.
    const expectedTransitions = new Map<string, number>();
    for (const event of events) {
      const transition = `${event.from_status ?? ""} → ${event.to_status}`;
      expectedTransitions.set(transition, (expectedTransitions.get(transition) ?? 0) + 1);
    }
    for (const [transition, count] of expectedTransitions) {
      const [from, to] = transition.split(" → ") as [string, string];
      expect([transition, workerMoved("crossfill_status_transitions_total", { from, to, ...pair })]).toEqual([
        transition,
        count,
      ]);
    }
    expect(events.map((event) => event.to_status)).toEqual(expect.arrayContaining(["pending", "success"]));
    expect({
      transitions: workerMoved("crossfill_status_transitions_total", pair),
      toPending: workerMoved("crossfill_deposit_to_pending_seconds_count", pair),
      toSuccess: workerMoved("crossfill_deposit_to_success_seconds_count", pair),
      filled: workerMoved("crossfill_fills_total", { outcome: "filled", failReason: "" }),
      fillsFailed: workerMoved("crossfill_fills_total", { outcome: "failed" }),
      refunds: workerMoved("crossfill_refunds_total"),
      delivered: workerMoved("crossfill_webhook_delivery_seconds_count", { outcome: "delivered", attempt: "1" }),
      deliveriesNotDelivered:
        workerMoved("crossfill_webhook_delivery_seconds_count") -
        workerMoved("crossfill_webhook_delivery_seconds_count", { outcome: "delivered" }),
    }).toEqual({
      transitions: events.length,
      toPending: 1,
      toSuccess: 1,
      filled: 1,
      fillsFailed: 0,
      refunds: 0,
      // One delivery per change, each at its first attempt, each received.
      delivered: events.length,
      deliveriesNotDelivered: 0,
    });
    expect(receiver.received).toHaveLength(events.length);
    // The latency: seconds since the deposit's block, into the histogram's sum.
    expect(workerMoved("crossfill_deposit_to_success_seconds_sum", pair)).toBeGreaterThanOrEqual(0);
    expect(workerMoved("crossfill_deposit_to_success_seconds_bucket", { ...pair, le: "+Inf" })).toBe(1);
    // The fill's amount left the solver's balance (whole ETH), besides its gas; nothing is owed once it is filled.
    const spent = workerMoved("crossfill_solver_balance", solverEther) * -1;
    const filledEther = Number(request!.fill_amount) / 1e18;
    expect(spent).toBeGreaterThanOrEqual(filledEther * (1 - 1e-9));
    expect(spent).toBeLessThan(filledEther + 0.01);
    expect(sum(workerAfter, "crossfill_solver_owed", solverEther)).toBe(0);
    // The queues at scrape time: every state of the fill queue exported, nothing failed.
    for (const state of ["waiting", "active", "delayed", "failed"])
      expect(workerAfter.families.get("crossfill_queue_jobs")!.samples).toContainEqual(
        expect.objectContaining({ labels: expect.objectContaining({ queue: "crossfill-fill", state }) }),
      );
    expect(sum(workerAfter, "crossfill_queue_jobs", { state: "failed" })).toBe(0);
    // The EVM indexer's heads moved on with the chains' blocks; the poller's by the three blocks mined.
    expect(workerMoved("crossfill_chain_indexed_head", { chain_id: String(origin.id) })).toBeGreaterThan(0);
    expect(workerMoved("crossfill_chain_indexed_head", btcChain)).toBe(3);
    expect(sum(workerAfter, "crossfill_pg_pool_connections")).toBeGreaterThan(0);

    // The poller: the three blocks read, recorded as far behind the head as before, a newer read.
    const pollerAfter = await scrapeUntil(
      bitcoin.healthUrl,
      "indexer",
      (page) =>
        sum(page, "crossfill_poller_source_head", btcChain) >=
        sum(pollerBefore, "crossfill_poller_source_head", btcChain) + 3,
    );
    const pollerMoved = (name: string) => sum(pollerAfter, name, btcChain) - sum(pollerBefore, name, btcChain);
    expect(pollerMoved("crossfill_poller_source_head")).toBe(3);
    expect(pollerMoved("crossfill_poller_last_success_timestamp_seconds")).toBeGreaterThan(0);
    expect(pollerMoved("crossfill_poller_lag")).toBe(0);
    expect(sum(pollerAfter, "crossfill_pg_pool_connections")).toBeGreaterThan(0);
    expect(sum(pollerAfter, "crossfill_process_resident_memory_bytes")).toBeGreaterThan(0);
  });
});
