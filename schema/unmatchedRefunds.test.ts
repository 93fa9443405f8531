import { describe, expect, it } from "vitest";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import {
  type DepositFact,
  MEMPOOL_BLOCK_HASH,
  NO_ORDER,
  POLLER_SOURCE,
  insertDepositFacts,
  insertWithdrawalFacts,
} from "./chainFacts.js";
import { recordRequestDeposit } from "./requestDeposits.js";
import { findUnappliedDeposits } from "./unappliedFacts.js";
import { recordPollerCursors } from "./pollerCursors.js";
import { queueRefund } from "./refunds.js";
import {
  dropQueuedUnmatchedRefund,
  findOpenUnmatchedRefunds,
  getUnmatchedRefund,
  listUnmatchedRefunds,
  markUnmatchedRefundConfirmed,
  markUnmatchedRefundSent,
  markUnmatchedRefundStuck,
  queueUnmatchedRefunds,
  unmatchedRefundIndexed,
  unmatchedRefundObstacle,
} from "./unmatchedRefunds.js";
import { withTransaction } from "./withTransaction.js";

let nextChain = 900_000;

describe("unmatchedRefunds", () => {
  const db = useMigratedDatabase();

  /** A fresh chain whose poller processed blocks up to `head`, and a deposit fact maker on it. */
  async function chainAt(head: number) {
    const chainId = nextChain++;
    await withTransaction(db.pool, (client) =>
      recordPollerCursors(client, chainId, [{ position: head, key: `block ${head}` }], 100),
    );
    const fact = (txHash: string, overrides: Partial<DepositFact> = {}): DepositFact => ({
      chainId,
      txHash,
      position: 0,
      orderId: NO_ORDER,
      depositor: "bcrt1qpayer",
      currency: "btc",
      amount: 10_000n,
      blockNumber: 10n,
      blockHash: "block 10",
      timestamp: 1n,
      txFrom: "bcrt1qpayer",
      txFee: 150n,
      ...overrides,
    });
    return { chainId, fact, rules: [{ chainId, afterBlocks: 3 }] };
  }

  /** Ponder's view, empty: the facts table is what the readers read. */
  const emptyPonderView = () =>
    db.pool.query(
      `CREATE SCHEMA IF NOT EXISTS onchain_fixture;
       CREATE TABLE IF NOT EXISTS onchain_fixture.deposit (chain_id integer, order_id text, depositor text,
         currency text, amount numeric(78,0), tx_hash text, log_index integer, block_number numeric(78,0),
         block_hash text, timestamp numeric(78,0), tx_from text, tx_fee numeric(78,0));`,
    );

  it("reads a deposit whose memo names a request id as a deposit of that request's order", async () => {
    const { fact } = await chainAt(30);
    const request = await insertTestRequest(db.pool);
    expect(request.id).not.toBe(request.orderId);
    await insertDepositFacts(db.pool, [fact("by request id", { orderId: request.id })], POLLER_SOURCE);
    await emptyPonderView();
    const unapplied = await findUnappliedDeposits(db.pool, "onchain_fixture");
    expect(unapplied.filter((deposit) => deposit.txHash === "by request id")).toEqual([
      expect.objectContaining({ orderId: request.orderId, requestId: request.id }),
    ]);
  });

  it("queues mined deposits no request has once they have the chain's confirmations, each once", async () => {
    const { chainId, fact, rules } = await chainAt(12);
    const request = await insertTestRequest(db.pool);
    const unknownOrder = `0x${"cd".repeat(32)}`;
    await insertDepositFacts(
      db.pool,
      [
        fact("memo-less"),
        fact("unknown order", { orderId: unknownOrder, depositor: "bcrt1qnamed", amount: 20_000n }),
        fact("too recent", { blockNumber: 11n }),
        fact("in the mempool", { blockNumber: 0n, blockHash: MEMPOOL_BLOCK_HASH }),
        fact("the request's", { orderId: request.orderId }),
        fact("naming the request", { orderId: request.id }),
      ],
      POLLER_SOURCE,
    );
    // A deposit a request refund spends already is that refund's.
    const refunded = fact("request refunded", { position: 3 });
    await insertDepositFacts(db.pool, [refunded], POLLER_SOURCE);
    await queueRefund(db.pool, {
      requestId: request.id,
      deposit: { chainId, txHash: refunded.txHash, position: 3, currency: "btc", amount: 10_000n },
      reason: "test",
      refundsRequest: true,
      recipient: "bcrt1qpayer",
    });
    // Three confirmations are not four.
    expect(await queueUnmatchedRefunds(db.pool, [{ chainId, afterBlocks: 4 }])).toEqual([]);

    const queued = await queueUnmatchedRefunds(db.pool, rules);
    expect(queued.map((refund) => [refund.txHash, refund.orderId, refund.recipient, refund.deposited])).toEqual(
      expect.arrayContaining([
        ["memo-less", NO_ORDER, "bcrt1qpayer", 10_000n],
        ["unknown order", unknownOrder, "bcrt1qnamed", 20_000n],
      ]),
    );
    expect(queued).toHaveLength(2);
    expect(queued[0]).toMatchObject({ status: "queued", amount: null, refundTxHash: null });
    expect(await queueUnmatchedRefunds(db.pool, rules)).toEqual([]);

    // The third block confirms the recent one.
    await withTransaction(db.pool, (client) => recordPollerCursors(client, chainId, [{ position: 13, key: "b" }], 100));
    expect((await queueUnmatchedRefunds(db.pool, rules)).map((refund) => refund.txHash)).toEqual(["too recent"]);
  });

  it("keeps a queued deposit from ever being applied to a request, and tells a late match or reorg apart", async () => {
    const { chainId, fact, rules } = await chainAt(20);
    const request = await insertTestRequest(db.pool);
    const late = fact("late", { orderId: `0x${"ef".repeat(32)}` });
    await insertDepositFacts(db.pool, [late, fact("plain")], POLLER_SOURCE);
    expect(await queueUnmatchedRefunds(db.pool, rules)).toHaveLength(2);
    const key = { chainId, txHash: "late", position: 0 };
    expect(await unmatchedRefundObstacle(db.pool, key)).toBeUndefined();

    // A request for that order appears: the queued deposit stays out of its reach.
    await db.pool.query("UPDATE crossfill.requests SET order_id = $1 WHERE id = $2", [late.orderId, request.id]);
    await emptyPonderView();
    const unapplied = await findUnappliedDeposits(db.pool, "onchain_fixture");
    expect(unapplied.filter((deposit) => deposit.txHash === "plain")).toEqual([]);

    // Applied by a request before the refund was sent (a race): the refund gives way.
    await withTransaction(db.pool, (client) => recordRequestDeposit(client, { ...late, requestId: request.id }));
    expect(await unmatchedRefundObstacle(db.pool, key)).toBe("a request applied the deposit");
    await dropQueuedUnmatchedRefund(db.pool, key);
    expect(await getUnmatchedRefund(db.pool, key)).toBeUndefined();

    await db.pool.query("DELETE FROM crossfill.deposit_facts WHERE chain_id = $1 AND tx_hash = 'plain'", [chainId]);
    expect(await unmatchedRefundObstacle(db.pool, { chainId, txHash: "plain", position: 0 })).toBe(
      "the deposit is no longer in a block",
    );
  });

  it("stores the signed refund once, then confirms it; stuck ones keep their reason; operators list them", async () => {
    const { chainId, fact, rules } = await chainAt(30);
    await insertDepositFacts(db.pool, [fact("to send"), fact("dust", { amount: 300n })], POLLER_SOURCE);
    await queueUnmatchedRefunds(db.pool, rules);
    const toSend = { chainId, txHash: "to send", position: 0 };
    const dust = { chainId, txHash: "dust", position: 0 };
    // Fresh rows wait their recheck interval; a zero interval finds both, queued before sent.
    expect(await findOpenUnmatchedRefunds(db.pool, 60_000)).not.toContainEqual(toSend);
    expect(await findOpenUnmatchedRefunds(db.pool, 0)).toEqual(expect.arrayContaining([toSend, dust]));

    const sent = { amount: 9_800n, fee: 200n, txHash: "refund tx", rawTx: "raw" };
    expect(await withTransaction(db.pool, (client) => markUnmatchedRefundSent(client, toSend, sent))).toBe(true);
    const again = { ...sent, txHash: "other", rawTx: "other raw" };
    expect(await withTransaction(db.pool, (client) => markUnmatchedRefundSent(client, toSend, again))).toBe(false);
    expect(await getUnmatchedRefund(db.pool, toSend)).toMatchObject({
      status: "sent",
      amount: 9_800n,
      fee: 200n,
      refundTxHash: "refund tx",
      rawTx: "raw",
    });
    // Indexed once a poller read a withdrawal with its hash on its chain: another transaction, or another chain's, is not it.
    const withdrawal = (txHash: string, onChain = chainId) => ({
      chainId: onChain,
      txHash,
      position: 0,
      orderId: NO_ORDER,
      recipient: "bcrt1qpayer",
      currency: "btc",
      amount: 9_800n,
      blockNumber: 31n,
      blockHash: "block 31",
      timestamp: 2n,
    });
    await insertWithdrawalFacts(db.pool, [withdrawal("another tx"), withdrawal("refund tx", chainId + 50_000)]);
    expect(await unmatchedRefundIndexed(db.pool, toSend)).toBe(false);
    await insertWithdrawalFacts(db.pool, [withdrawal("refund tx")]);
    expect(await unmatchedRefundIndexed(db.pool, toSend)).toBe(true);
    await markUnmatchedRefundConfirmed(db.pool, toSend);
    expect(await unmatchedRefundIndexed(db.pool, toSend)).toBe(false);
    await markUnmatchedRefundStuck(db.pool, dust, "unrefundable", "AMOUNT_TOO_LOW_TO_REFUND", "300 against 187");
    // Stuck only from queued: a sent refund is not marked.
    await markUnmatchedRefundStuck(db.pool, toSend, "manual", "MANUAL_REFUND_REQUIRED", "no");
    expect(await findOpenUnmatchedRefunds(db.pool, 0)).not.toEqual(expect.arrayContaining([toSend]));

    const listed = (await listUnmatchedRefunds(db.pool)).filter((refund) => refund.chainId === chainId);
    expect(listed.map((refund) => [refund.txHash, refund.status, refund.refundFailReason])).toEqual(
      expect.arrayContaining([
        ["to send", "confirmed", null],
        ["dust", "unrefundable", "AMOUNT_TOO_LOW_TO_REFUND"],
      ]),
    );
    const unrefundable = await listUnmatchedRefunds(db.pool, ["unrefundable"]);
    expect(unrefundable.filter((refund) => refund.chainId === chainId).map((refund) => refund.txHash)).toEqual([
      "dust",
    ]);
  });
});
