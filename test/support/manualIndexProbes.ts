import { expect, vi } from "vitest";
import { z } from "zod";
import { openapiRecordIssues } from "./openapiRecordIssues.js";
import { pollStatus } from "./pollStatus.js";
import type { TestStack } from "./startTestStack.js";

/** What POST /transactions/index answered. */
export type IndexAnswer = { status: number; body: Record<string, unknown> };

/** The answer for a transaction that makes no deposit, fill or refund of ours: nothing recorded. */
export const NOTHING_INDEXED: IndexAnswer = {
  status: 200,
  body: { message: "Transaction has no deposit, fill or refund", deposits: 0, recorded: 0, fills: 0, refunds: 0 },
};

/**
 * The reads a test of POST /transactions/index makes of a stack (started in its `beforeAll`): the route itself (each
 * answer checked against /openapi.json), every chain fact and applied settlement the service holds (an abuse of the
 * route must change none of them), a request's status events and sent refund, and its v3 record checked against the
 * record schema /openapi.json publishes (read with `readerKey`).
 */
export function manualIndexProbes(stack: () => TestStack, readerKey: () => string) {
  const probes = {
    async index(txHash: string, chainId: number | string): Promise<IndexAnswer> {
      const response = await fetch(`${stack().api.url}/transactions/index`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ txHash, chainId: String(chainId), referrer: "relay.link" }),
      });
      const body = (await response.json()) as Record<string, unknown>;
      // Every answer is what /openapi.json publishes for it.
      const document = await fetch(`${stack().api.url}/openapi.json`).then((r) => r.json());
      const published = document.paths["/transactions/index"].post.responses[String(response.status)];
      expect(published, `POST /transactions/index answered an unpublished ${response.status}`).toBeDefined();
      const schema = published.content["application/json"].schema;
      const resolved = schema.$ref ? document.components.schemas.Error : schema;
      expect(z.fromJSONSchema(resolved).safeParse(body).success, JSON.stringify(body)).toBe(true);
      return { status: response.status, body };
    },
    async written() {
      const { rows } = await stack().pool.query(
        `SELECT (SELECT count(*) FROM crossfill.deposit_facts) AS deposits, (SELECT count(*) FROM crossfill.fill_facts) AS fills,
                (SELECT count(*) FROM crossfill.withdrawal_facts) AS withdrawals,
                (SELECT count(*) FROM crossfill.request_fills) AS applied_fills,
                (SELECT count(*) FROM crossfill.status_events) AS events`,
      );
      return rows[0];
    },
    async statusEvents(requestId: string): Promise<string[]> {
      const { rows } = await stack().pool.query(
        "SELECT to_status FROM crossfill.status_events WHERE request_id = $1 ORDER BY id",
        [requestId],
      );
      return rows.map((row) => row.to_status);
    },
    /** The hash of the request's refund once the worker has sent it (and the indexer, stopped, has not seen it). */
    sentRefund: (requestId: string): Promise<string> =>
      vi.waitFor(
        async () => {
          const { rows } = await stack().pool.query(
            "SELECT tx_hash FROM crossfill.refunds WHERE request_id = $1 AND status = 'sent'",
            [requestId],
          );
          expect(rows).toHaveLength(1);
          return rows[0].tx_hash as string;
        },
        { timeout: 30_000, interval: 100 },
      ),
    async record(requestId: string) {
      const listed = await fetch(`${stack().api.url}/requests/v3?id=${requestId}`, {
        headers: { "x-api-key": readerKey() },
      }).then((r) => r.json());
      expect(await openapiRecordIssues(stack().api.url, listed.requests[0])).toEqual([]);
      return listed.requests[0];
    },
    /**
     * Indexes the failed request's sent refund: the request moves to refund on it, its refund is confirmed and shown in
     * its record; indexed again, nothing more is recorded.
     */
    async refundIndexed(requestId: string, refund: string, chainId: number) {
      expect(await probes.index(refund, chainId)).toMatchObject({
        status: 200,
        body: { deposits: 0, fills: 0, refunds: 1 },
      });
      const { last } = await pollStatus(stack().api.url, requestId, { until: ["refund"], timeoutMs: 30_000 });
      expect(last.status).toBe("refund");
      const refunds = await stack().pool.query("SELECT tx_hash, status FROM crossfill.refunds WHERE request_id = $1", [
        requestId,
      ]);
      expect(refunds.rows).toEqual([{ tx_hash: refund, status: "confirmed" }]);
      expect((await probes.record(requestId)).protocol.settlement.destination.refunds).toEqual([
        { chainId, transactionId: refund },
      ]);
      expect(await probes.index(refund, chainId)).toMatchObject({ status: 200, body: { refunds: 1 } });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await probes.statusEvents(requestId)).toEqual(["waiting", "pending", "failure", "refund"]);
      const withdrawals = await stack().pool.query(
        "SELECT count(*)::int AS n FROM crossfill.withdrawal_facts WHERE tx_hash = $1",
        [refund],
      );
      expect(withdrawals.rows[0].n).toBe(1);
    },
  };
  return probes;
}
