import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runChainsCommand } from "../apps/runChainsCommand.js";
import { type CrashCluster, checkInvariants, startCrashCluster } from "./support/crashCluster.js";
import { openStatusFeed } from "./support/openStatusFeed.js";
import { pollStatus } from "./support/pollStatus.js";
import { postQuote } from "./support/postQuote.js";
import { route } from "./support/route.js";
import { sendSteps } from "./support/sendSteps.js";

const INTENTS = 30;

/** A `/ws` client of one gateway, subscribed to every request from `chainId`, keeping each request's statuses. */
async function watchFeed(apiUrl: string, chainId: number) {
  const seen = new Map<string, string[]>();
  const feed = await openStatusFeed(apiUrl, { chainId }, (data) =>
    seen.set(data.requestId, [...(seen.get(data.requestId) ?? []), data.status]),
  );
  return { seen, close: feed.close };
}

/**
 * Scale-out: two `crossfill api` and two `crossfill worker` processes on one Postgres and Redis, one indexer.
 * Intents are quoted on both gateways; each is filled exactly once (read from the chains' logs) and every status
 * change reaches the `/ws` clients of both gateways.
 */
describe("two gateways and two workers", () => {
  let cluster: CrashCluster;
  beforeAll(async () => {
    cluster = await startCrashCluster({ apis: 2, workers: 2 });
  }, 240_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  it(`fills ${INTENTS} intents quoted across both gateways once each, and both gateways' feeds see every change`, async () => {
    const [origin, destination] = cluster.devnet.chains;
    const feeds = await Promise.all(cluster.apiUrls.map((url) => watchFeed(url, origin.id)));
    const accounts = cluster.devnet.accounts;
    const startedAt = Date.now();
    // One lane per test account (its deposits go out one after another, in nonce order), all lanes at once.
    const lanes = accounts.map(async (account, lane) => {
      const ids: string[] = [];
      for (let n = lane; n < INTENTS; n += accounts.length) {
        const quote = await postQuote(cluster.apiUrls[n % cluster.apiUrls.length], {
          user: account.address,
          ...route(origin, destination),
          amount: (10n ** 15n * BigInt(n + 1)).toString(),
          tradeType: "EXACT_INPUT",
        });
        expect(quote.status, JSON.stringify(quote.body)).toBe(200);
        await sendSteps(quote.body, account, origin);
        ids.push(quote.body.requestId);
      }
      return ids;
    });
    const requestIds = (await Promise.all(lanes)).flat();
    expect(requestIds).toHaveLength(INTENTS);
    // Each request is polled on the gateway that did not quote it: any replica answers for any request.
    await Promise.all(
      requestIds.map(async (id, n) => {
        const { last } = await pollStatus(cluster.apiUrls[(n + 1) % cluster.apiUrls.length], id, {
          timeoutMs: 120_000,
        });
        expect(last.status).toBe("success");
      }),
    );
    const allDoneMs = Date.now() - startedAt;

    const { rows } = await cluster.pool.query<{ request_id: string; statuses: string[] }>(
      `SELECT request_id, array_agg(to_status ORDER BY id) AS statuses FROM crossfill.status_events
        WHERE request_id = ANY($1) GROUP BY request_id`,
      [requestIds],
    );
    expect(rows).toHaveLength(INTENTS);
    // Deliveries trail the last status by the notifier's tick: wait for them, within bounds.
    for (
      let i = 0;
      i < 100 && !feeds.every((feed) => rows.every((r) => feed.seen.get(r.request_id)?.at(-1) === "success"));
      i++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    for (const [gateway, feed] of feeds.entries()) {
      for (const row of rows) {
        expect(feed.seen.get(row.request_id), `gateway ${gateway}, request ${row.request_id}`).toEqual(row.statuses);
      }
    }
    feeds.forEach((feed) => feed.close());

    expect(await checkInvariants(cluster)).toEqual([]);
    const { rows: nonces } = await cluster.pool.query<{ n: number }>(
      "SELECT count(DISTINCT nonce)::int AS n FROM crossfill.fill_attempts WHERE request_id = ANY($1)",
      [requestIds],
    );
    // Two workers sign on one solver key: every fill took a nonce of its own.
    expect(nonces[0].n).toBe(INTENTS);
    console.log(
      `scale-out: ${INTENTS} intents over 2 gateways and 2 workers, all filled in ${allDoneMs} ms (${((INTENTS * 1000) / allDoneMs).toFixed(1)} intents/s, deposits included)`,
    );
  }, 300_000);

  it("reflects an operator's chain switch on every gateway, and the indexer role's heads in blockProductionLagging", async () => {
    const [origin, destination] = cluster.devnet.chains;
    const chainOf = async (apiUrl: string, id: number) =>
      ((await (await fetch(`${apiUrl}/chains`)).json()) as { chains: any[] }).chains.find((c) => c.id === id);
    // `crossfill indexer evm` copies the heads Ponder reached into chain_heads every second; 1 s blocks move them.
    for (const apiUrl of cluster.apiUrls) {
      expect((await chainOf(apiUrl, origin.id)).blockProductionLagging).toBe(false);
      expect((await chainOf(apiUrl, destination.id)).blockProductionLagging).toBe(false);
    }
    const quoteOn = (apiUrl: string) =>
      postQuote(apiUrl, {
        user: cluster.devnet.accounts[0].address,
        ...route(origin, destination),
        amount: (10n ** 15n).toString(),
        tradeType: "EXACT_INPUT",
      });
    expect(await runChainsCommand(cluster.pool, ["disable", String(destination.id)], () => {})).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // each gateway reads the switches at most 1 s late
    for (const apiUrl of cluster.apiUrls) {
      expect((await quoteOn(apiUrl)).body.errorCode).toBe("CHAIN_DISABLED");
      expect(await chainOf(apiUrl, destination.id)).toMatchObject({ disabled: true, depositEnabled: false });
    }
    expect(await runChainsCommand(cluster.pool, ["enable", String(destination.id)], () => {})).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    for (const apiUrl of cluster.apiUrls) expect((await quoteOn(apiUrl)).status).toBe(200);
  });
});
