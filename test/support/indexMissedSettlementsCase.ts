import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DEBUG_FORCE_REFUND_REFERRER } from "../../jobs/createFillProcessor.js";
import { createApiKey } from "../../src/apiKeys/createApiKey.js";
import { type IndexAnswer, NOTHING_INDEXED, manualIndexProbes } from "./manualIndexProbes.js";
import { pollStatus } from "./pollStatus.js";
import { postQuote } from "./postQuote.js";
import { sendSteps } from "./sendSteps.js";
import { type TestStack, startTestStack } from "./startTestStack.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A hash POST /transactions/index is sent with and the chain it is sent for. */
export type IndexedHash = { txHash: string; chainId: number };

/** What the shared case needs of a family: its devnet in the stack, its routes, and how its transactions land. */
export type MissedSettlementsFamily = {
  name: string;
  stackOptions: Parameters<typeof startTestStack>[0];
  chainId(stack: TestStack): number;
  /** EVM → family: the quote's fields beside the first EVM chain as origin and its first account as user. */
  fillQuote(stack: TestStack): Record<string, unknown> & { recipient: string };
  /** Family → EVM: the quote's fields beside the first EVM chain as destination (recipient: its second account). */
  refundQuote(stack: TestStack): Record<string, unknown> & { user: string };
  /** Does the quote's steps on the family, as its wallet does; the deposit's hash once it may be indexed (mined). */
  deposit(stack: TestStack, quote: any): Promise<string>;
  /**
   * Brings a sent transaction of the worker's to where the chain counts it (Bitcoin: a block; Solana: finalized);
   * `index` is POST /transactions/index, for a family to show first that before then it answers 404.
   */
  settle(stack: TestStack, txHash: string, index: (hash: IndexedHash) => Promise<IndexAnswer>): Promise<void>;
  /** A landed transaction that is not ours, dressed as a fill of the request: a stranger's payment naming it. */
  forgedFill(stack: TestStack, quote: any): Promise<string>;
  /**
   * Whether a stored hash is the chain's own name for the transaction: the exchange names a transfer only once it
   * commits it, and the worker stores its own id until its receipt reads the exchange's. Others: always.
   */
  namedByChain?(txHash: string): boolean;
  /**
   * The chain's own hash of a transaction the worker stored under its own id (the exchange's transfer, by its signer
   * and nonce); absent where the stored hash is the chain's.
   */
  chainHashOf?(stack: TestStack, stored: string): string;
  /** Whether its transaction hashes are written as EVM's are (0x and 32 bytes): then a fill's is one of an EVM chain too. */
  hashesLikeEvm: boolean;
  /** Hashes of the wrong chain (a transaction the chain sent with does not have): each answers 404. */
  wrongChain(stack: TestStack, hashes: { evmDeposit: string; fill: string }): IndexedHash[];
};

/**
 * POST /transactions/index brings in a fill the worker sent to the family and a refund it sent on the family while
 * every indexer is stopped (the family's poller among them): the requests reach success and refund from them, and
 * the route's abuses — a transaction that is not ours, a hash on the wrong chain, the same hash twice, one not yet
 * counted by its chain — record nothing. One case, run per family (test/indexMissedSettlements<Family>.e2e.test.ts).
 */
export function describeIndexMissedSettlements(family: MissedSettlementsFamily): void {
  describe(`POST /transactions/index brings in ${family.name} fills and refunds its poller missed`, () => {
    let stack: TestStack;
    let readerKey: string;
    beforeAll(async () => {
      stack = await startTestStack(family.stackOptions);
      readerKey = (await createApiKey(stack.pool, stack.serverKey, { name: "reader" })).key;
      await stack.stopIndexers();
    }, 120_000);
    afterAll(async () => {
      await stack?.stop();
    });

    const evm = () => stack.devnet.chains[0];
    const probes = manualIndexProbes(
      () => stack,
      () => readerKey,
    );
    const { written, statusEvents, record, sentRefund, refundIndexed } = probes;
    const index = ({ txHash, chainId }: IndexedHash) => probes.index(txHash, chainId);
    const onFamily = (txHash: string) => ({ txHash, chainId: family.chainId(stack) });
    const quote = async (fields: Record<string, unknown>) => {
      const answer = await postQuote(stack.api.url, { tradeType: "EXACT_INPUT", ...fields });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body;
    };

    it("the worker's fill to the chain, missed by its poller, makes the request succeed once indexed", async () => {
      const user = stack.devnet.accounts[0];
      const body = await quote({ user: user.address, originChainId: evm().id, ...family.fillQuote(stack) });
      const requestId = body.steps.at(-1).requestId as string;
      const { deposit } = await sendSteps(body, user, evm());
      expect((await index({ txHash: deposit!, chainId: evm().id })).body).toMatchObject({ deposits: 1, recorded: 1 });
      // The worker fills on the family's chain; its poller is not there to see it.
      const fill = await vi.waitFor(
        async () => {
          const { rows } = await stack.pool.query("SELECT tx_hash FROM crossfill.fill_attempts WHERE request_id = $1", [
            requestId,
          ]);
          expect(rows).toHaveLength(1);
          return rows[0].tx_hash as string;
        },
        { timeout: 30_000, interval: 100 },
      );
      // Where the worker leaves it without the poller: sent, waiting for the poller's fill fact.
      await pollStatus(stack.api.url, requestId, { until: ["submitted"], timeoutMs: 30_000 });
      const before = await written();
      await family.settle(stack, fill, index);
      const forged = await family.forgedFill(stack, body);
      expect(await index(onFamily(forged))).toEqual(NOTHING_INDEXED);
      for (const wrong of family.wrongChain(stack, { evmDeposit: deposit!, fill }))
        expect(await index(wrong)).toMatchObject({ status: 404, body: { errorCode: "TRANSACTION_NOT_FOUND" } });
      // The fill's hash sent with the EVM chain: 404 where the two families write hashes alike, else not even a hash.
      expect(await index({ txHash: fill, chainId: evm().id })).toMatchObject(
        family.hashesLikeEvm
          ? { status: 404, body: { errorCode: "TRANSACTION_NOT_FOUND" } }
          : { status: 400, body: { errorCode: "INVALID_INPUT" } },
      );
      expect(await written()).toEqual(before);

      // The chain's own hash of the fill, as a user finds it on the chain.
      const mined = family.chainHashOf?.(stack, fill) ?? fill;
      expect((await index(onFamily(mined!))).body).toMatchObject({ deposits: 0, fills: 1, refunds: 0 });
      const { last } = await pollStatus(stack.api.url, requestId, { timeoutMs: 30_000 });
      expect(last).toMatchObject({ status: "success", txHashes: [mined] });
      await vi.waitFor(
        async () => {
          const applied = await stack.pool.query(
            "SELECT tx_hash, provisional FROM crossfill.request_fills WHERE request_id = $1",
            [requestId],
          );
          expect(applied.rows).toEqual([{ tx_hash: mined, provisional: false }]);
        },
        { timeout: 10_000, interval: 100 },
      );
      expect((await record(requestId)).data.outTxs).toEqual([
        expect.objectContaining({ txHash: mined, chainId: family.chainId(stack), status: "success" }),
      ]);

      // Indexed again: nothing more is recorded, the request moves no further.
      const events = await statusEvents(requestId);
      expect(events.at(-1)).toBe("success");
      expect((await index(onFamily(mined!))).body).toMatchObject({ fills: 1 });
      await sleep(500);
      expect(await statusEvents(requestId)).toEqual(events);
      const facts = await stack.pool.query("SELECT count(*)::int AS n FROM crossfill.fill_facts WHERE tx_hash = $1", [
        mined,
      ]);
      expect(facts.rows[0].n).toBe(1);
    }, 120_000);

    it("the worker's refund on the chain, missed by its poller, moves the failed request to refund once indexed", async () => {
      const body = await quote({
        destinationChainId: evm().id,
        recipient: stack.devnet.accounts[1].address,
        // The devnet solver refuses this request's fill: it fails, and its deposit is paid back.
        referrer: DEBUG_FORCE_REFUND_REFERRER,
        ...family.refundQuote(stack),
      });
      const requestId = body.steps.at(-1).requestId as string;
      const deposit = await family.deposit(stack, body);
      expect((await index(onFamily(deposit))).body).toMatchObject({ deposits: 1, recorded: 1 });
      expect((await pollStatus(stack.api.url, requestId, { until: ["failure"] })).last.status).toBe("failure");

      const sent = await sentRefund(requestId);
      const before = await written();
      await family.settle(stack, sent, index);
      expect(await written()).toEqual(before);
      await sleep(1_500);
      expect((await pollStatus(stack.api.url, requestId, { until: ["failure"] })).last.status).toBe("failure");

      // Stored under the chain's own hash once its receipt names it (the exchange's), the hash a user would index.
      const refund = await vi.waitFor(
        async () => {
          const { rows } = await stack.pool.query("SELECT tx_hash FROM crossfill.refunds WHERE request_id = $1", [
            requestId,
          ]);
          expect(family.namedByChain?.(rows[0].tx_hash) ?? true).toBe(true);
          return rows[0].tx_hash as string;
        },
        { timeout: 10_000, interval: 100 },
      );
      await refundIndexed(requestId, refund, family.chainId(stack));
    }, 120_000);
  });
}
