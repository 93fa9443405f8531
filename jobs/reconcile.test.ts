import { randomBytes } from "node:crypto";
import pg from "pg";
import pino from "pino";
import { zeroAddress } from "viem";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startPoller } from "../indexers/poller/startPoller.js";
import {
  MEMPOOL_BLOCK_HASH,
  POLLER_SOURCE,
  dropMempoolDepositFacts,
  insertDepositFact,
  insertDepositFacts,
  replaceMempoolDepositFacts,
} from "../schema/chainFacts.js";
import { markDepositReorged } from "../schema/requestDeposits.js";
import type { FactWindow } from "../schema/unappliedFacts.js";
import { migrate } from "../schema/migrate.js";
import { FakePollerSource } from "../test/support/fakePollerSource.js";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { ONCHAIN_FIXTURE, insertIndexedFill } from "../test/support/onchainFixture.js";
import { createTestDatabase } from "../test/support/testDatabase.js";
import { chainConfigSchema } from "../src/chains/chainConfig.js";
import { createChainRegistry } from "../src/chains/chainRegistry.js";
import { createPriceChain } from "../src/pricing/createPriceChain.js";
import { createStaticPriceSource, priceSourceOf } from "../src/pricing/priceSource.js";
import { childRequestId } from "../src/domain/childRequestId.js";
import { insertFillAttempt } from "../schema/fillAttempts.js";
import { recordReceiptFill } from "../schema/receiptFills.js";
import { fillsOfRequests } from "../schema/requestChainFacts.js";
import { transitionRequest } from "../schema/transitionRequest.js";
import { withTransaction } from "../schema/withTransaction.js";
import { listOpenOperatorAlerts } from "../schema/operatorAlerts.js";
import { failRequest } from "./failRequest.js";
import { reconcile } from "./reconcile.js";
import type { ReconcileDeps } from "./reconcileDeps.js";
import { reconcileDeposits } from "./reconcileDeposits.js";
import { reconcileFillsAndRefunds } from "./reconcileFillsAndRefunds.js";

const registry = createChainRegistry(
  [31338, 31339].map((id) =>
    chainConfigSchema.parse({
      id,
      name: `chain-${id}`,
      rpcUrl: "http://127.0.0.1:1",
      depository: "0x00000000000000000000000000000000000000d0",
      receiver: "0x00000000000000000000000000000000000000e0",
    }),
  ),
);

const hash = () => `0x${randomBytes(32).toString("hex")}`;

describe("reconcile", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: pg.Pool;
  let enqueued: string[];
  let fillKeys: Array<string | undefined>;
  let refunds: string[];
  const deps = (logger = pino({ level: "silent" })): ReconcileDeps => ({
    pool,
    onchainSchema: "onchain_fixture",
    logger,
    enqueueFill: async (id, options) => {
      enqueued.push(id);
      fillKeys.push(options?.key);
    },
    enqueueRefund: async (id) => void refunds.push(id),
    registry,
    prices: createStaticPriceSource({ ETH: "3000" }),
  });
  const run = (logger = pino({ level: "silent" }), window: FactWindow = {}) => reconcile(deps(logger), window);
  const refundsOf = async (requestId: string) =>
    (
      await pool.query(
        "SELECT id, reason, refunds_request, amount, recipient, status FROM crossfill.refunds WHERE request_id = $1 ORDER BY id",
        [requestId],
      )
    ).rows;
  const deposit = (orderId: string, overrides: Record<string, unknown> = {}) => {
    const row = {
      chain_id: 31338,
      currency: zeroAddress,
      amount: "1000",
      tx_hash: hash(),
      log_index: 0,
      tx_fee: "21000000000000",
      timestamp: 1700000000,
      ...overrides,
    };
    return pool.query(
      `INSERT INTO onchain_fixture.deposit VALUES ($1, $2, $3, '0xabc', $4, $5, $6, $7, 10, '0xblock', $9, '0xabc', $8)`,
      [
        `${row.chain_id}:${row.tx_hash}:${row.log_index}`,
        row.chain_id,
        orderId,
        row.currency,
        row.amount,
        row.tx_hash,
        row.log_index,
        row.tx_fee,
        row.timestamp,
      ],
    );
  };
  /** The app's own fact of a deposit indexed by hand (POST /transactions/index), without a fee, in an old block. */
  const indexByHand = (orderId: string, txHash = hash()) =>
    insertDepositFact(
      pool,
      {
        chainId: 31338,
        txHash,
        position: 0,
        orderId,
        depositor: "0xabc",
        currency: zeroAddress,
        amount: 1000n,
        blockNumber: 10n,
        blockHash: "0xblock",
        timestamp: 1700000000n,
        txFrom: "0xabc",
        txFee: null,
      },
      "manual",
    );
  const statuses = async (requestId: string) =>
    (
      await pool.query("SELECT to_status, fail_reason FROM crossfill.status_events WHERE request_id = $1 ORDER BY id", [
        requestId,
      ])
    ).rows;

  /** Polls a fake chain to its head, as a fresh chain: the poller state of earlier tests on that chain id is dropped. */
  const pollChain = async (source: FakePollerSource, chainId: number) => {
    await pool.query("DELETE FROM crossfill.poller_blocks WHERE chain_id = $1", [chainId]);
    const poller = startPoller({ pool, source, chainId, startHeight: 0, logger: pino({ level: "silent" }) });
    while (poller.health().cursor !== source.blocks.length - 1) await new Promise((resolve) => setTimeout(resolve, 5));
    await poller.stop();
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 4 });
    await migrate(pool);
    await pool.query(ONCHAIN_FIXTURE);
  });
  beforeEach(() => {
    enqueued = [];
    fillKeys = [];
    refunds = [];
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  it("moves a waiting request to pending on its deposit and to success on its fill, once, keeping their fees", async () => {
    const request = await insertTestRequest(pool);
    const depositTx = hash();
    await deposit(request.orderId, { tx_hash: depositTx });
    // The same deposit indexed by hand before fees were recorded: still one deposit, with the indexer's fee.
    await indexByHand(request.orderId, depositTx);
    expect(await run()).toMatchObject({ deposits: 1, fills: 0 });
    expect(enqueued).toEqual([request.id]);
    expect(await run()).toMatchObject({ deposits: 0, fills: 0 });
    await pool.query(
      `INSERT INTO onchain_fixture.fill VALUES ('f1', 31339, $1, '0xsolver', $2, '0xrecipient', 990, $3, 0, 20, '0xb', 1700000002, '0xsolver', 55000000000000)`,
      [request.id, zeroAddress, hash()],
    );
    expect(await run()).toMatchObject({ fills: 1 });
    const fees = await pool.query(
      `SELECT (SELECT array_agg(tx_fee::text) FROM crossfill.request_deposits WHERE request_id = $1) AS deposits,
              (SELECT array_agg(tx_fee::text) FROM crossfill.request_fills WHERE request_id = $1) AS fills`,
      [request.id],
    );
    expect(fees.rows[0]).toEqual({ deposits: ["21000000000000"], fills: ["55000000000000"] });
    await run();
    expect(await statuses(request.id)).toEqual([
      { to_status: "waiting", fail_reason: null },
      { to_status: "pending", fail_reason: null },
      { to_status: "success", fail_reason: null },
    ]);
  });

  it("holds a request whose fill, not one of Crossfill's attempts, pays less than it owes, and alerts an operator", async () => {
    // The attack: a fill the solver's key signed by hand (or a leaked key) pays 1 wei of the 990 owed.
    const request = await insertTestRequest(pool);
    await deposit(request.orderId);
    await run();
    const shortTx = hash();
    await pool.query(
      `INSERT INTO onchain_fixture.fill VALUES ($4, 31339, $1, '0xsolver', $2, '0xrecipient', 1, $3, 0, 21, '0xb', 1700000002, '0xsolver', 1)`,
      [request.id, zeroAddress, shortTx, `short-${shortTx}`],
    );
    expect(await run()).toMatchObject({ fills: 1 });
    await run();
    expect((await statuses(request.id)).map((row) => row.to_status)).toEqual(["waiting", "pending"]);
    const alerts = await pool.query(
      "SELECT kind, subject, details FROM crossfill.operator_alerts WHERE details->>'requestId' = $1",
      [request.id],
    );
    expect(alerts.rows).toEqual([
      {
        kind: "SHORT_FILL",
        subject: `31339:${shortTx}:0`,
        details: expect.objectContaining({ fillTxHash: shortTx, paid: "1", owed: "990", status: "pending" }),
      },
    ]);
    // The full fill that follows is the request's success.
    const fullTx = hash();
    await pool.query(
      `INSERT INTO onchain_fixture.fill VALUES ($4, 31339, $1, '0xsolver', $2, '0xrecipient', 990, $3, 0, 22, '0xb', 1700000003, '0xsolver', 1)`,
      [request.id, zeroAddress, fullTx, `full-${fullTx}`],
    );
    await run();
    expect((await statuses(request.id)).map((row) => row.to_status)).toEqual(["waiting", "pending", "success"]);
  });

  it("reads only the facts indexed lately in a windowed pass; older ones wait for the full read", async () => {
    const recent = { recentSeconds: 300 };
    const [old, fresh, recorded] = [
      await insertTestRequest(pool),
      await insertTestRequest(pool),
      await insertTestRequest(pool),
    ];
    await deposit(old.orderId, { timestamp: Math.floor(Date.now() / 1000) - 3_600 });
    await deposit(fresh.orderId, { timestamp: Math.floor(Date.now() / 1000) - 5 });
    // an old block's deposit the app recorded just now (indexed by hand): recent by when it was recorded
    await indexByHand(recorded.orderId);
    expect(await run(undefined, recent)).toMatchObject({ deposits: 2 });
    expect(enqueued.sort()).toEqual([fresh.id, recorded.id].sort());
    await insertIndexedFill(pool, fresh.id, hash());
    expect(await run(undefined, recent)).toMatchObject({ deposits: 0, fills: 0 });
    expect(await run()).toMatchObject({ deposits: 1, fills: 1 });
    expect((await statuses(old.id)).map((event) => event.to_status)).toEqual(["waiting", "pending"]);
    expect((await statuses(fresh.id)).map((event) => event.to_status)).toEqual(["waiting", "pending", "success"]);
    // nothing left pending for the tests after this one
    for (const request of [old, recorded]) await insertIndexedFill(pool, request.id, hash());
    expect(await run()).toMatchObject({ fills: 2 });
  });

  it("credits each app-fee recipient once on success, scaled with an exact input's overpayment within its tolerance", async () => {
    const appFees = [
      {
        recipient: "0x00000000000000000000000000000000000000A1",
        bps: "100",
        amount: "10",
        amountFormatted: "0",
        amountUsd: "0.00003",
      },
      {
        recipient: "0x00000000000000000000000000000000000000a2",
        bps: "30",
        amount: "3",
        amountFormatted: "0",
        amountUsd: "0.000009",
      },
    ];
    // 1,500 paid for 1,000 quoted: within the quote's 50 % tolerance, so filled and earned at the quoted rate.
    const request = await insertTestRequest(pool, { quote: { appFees, overpaymentToleranceBps: "5000" } });
    const earnings = async () =>
      (
        await pool.query(
          "SELECT recipient, chain_id::int, currency, bps, amount::text, amount_usd::text FROM crossfill.app_fee_earnings WHERE request_id = $1 ORDER BY recipient",
          [request.id],
        )
      ).rows;
    await deposit(request.orderId, { amount: "1500" });
    await run();
    expect(await earnings()).toEqual([]);
    await pool.query(
      `INSERT INTO onchain_fixture.fill VALUES ('f-app', 31339, $1, '0xsolver', $2, '0xrecipient', 1485, $3, 0, 20, '0xb', 1700000002, '0xsolver', 1)`,
      [request.id, zeroAddress, hash()],
    );
    await run();
    await run();
    expect(await earnings()).toEqual([
      {
        recipient: "0x00000000000000000000000000000000000000a1",
        chain_id: 31338,
        currency: zeroAddress,
        bps: 100,
        amount: "15",
        amount_usd: "0.000045",
      },
      {
        recipient: "0x00000000000000000000000000000000000000a2",
        chain_id: 31338,
        currency: zeroAddress,
        bps: 30,
        amount: "4",
        amount_usd: "0.000012",
      },
    ]);
  });

  it("fails a request whose deposit is in another currency, on another chain, or too small, and queues its refund", async () => {
    const cases = [
      [{ currency: "0x00000000000000000000000000000000000000aa" }, "INCORRECT_DEPOSIT_CURRENCY"],
      [{ chain_id: 31339 }, "DEPOSIT_CHAIN_MISMATCH"],
      [{ amount: "10" }, "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL"],
    ] as const;
    for (const [overrides, reason] of cases) {
      const request = await insertTestRequest(pool);
      await deposit(request.orderId, overrides);
      await run();
      expect((await statuses(request.id)).at(-1)).toEqual({ to_status: "failure", fail_reason: reason });
      const [refund] = await refundsOf(request.id);
      expect(refund).toMatchObject({
        reason,
        refunds_request: true,
        status: "queued",
        recipient: request.refundTo.toLowerCase(),
      });
      expect(refunds).toContain(refund.id);
    }
    expect(enqueued).toEqual([]);
  });

  it("makes a second deposit a child request that fails as DOUBLE_SPEND and is refunded, without moving the parent", async () => {
    const request = await insertTestRequest(pool);
    await deposit(request.orderId);
    await run();
    const second = hash();
    await deposit(request.orderId, { tx_hash: second, amount: "700" });
    // Two workers at once, then again: one child, one refund.
    await Promise.all([run(), run()]);
    await run();
    expect((await statuses(request.id)).map((row) => row.to_status)).toEqual(["waiting", "pending"]);
    expect(await refundsOf(request.id)).toEqual([]);

    const children = await pool.query(
      "SELECT id, order_id, status, fail_reason, amount_in::text, user_address FROM crossfill.requests WHERE parent_request_id = $1",
      [request.id],
    );
    const childId = childRequestId(request.id, { chainId: 31338, txHash: second, position: 0 });
    expect(children.rows).toEqual([
      {
        id: childId,
        order_id: request.orderId,
        status: "failure",
        fail_reason: "DOUBLE_SPEND",
        amount_in: "700",
        user_address: "0xabc",
      },
    ]);
    expect(await statuses(childId)).toEqual([
      { to_status: "waiting", fail_reason: null },
      { to_status: "failure", fail_reason: "DOUBLE_SPEND" },
    ]);
    const applied = await pool.query("SELECT request_id FROM crossfill.request_deposits WHERE tx_hash = $1", [second]);
    expect(applied.rows).toEqual([{ request_id: childId }]);
    const [refund] = await refundsOf(childId);
    expect(refund).toMatchObject({ reason: "DOUBLE_SPEND", refunds_request: true, status: "queued" });
    expect(refunds.filter((id) => id === refund.id)).toHaveLength(1);

    // A reorg mines the same duplicate in another block: the same payment, which the child has; no second refund.
    await pool.query("UPDATE onchain_fixture.deposit SET block_hash = '0xother' WHERE tx_hash = $1", [second]);
    refunds = [];
    await run();
    expect(
      (await pool.query("SELECT count(*)::int AS n FROM crossfill.requests WHERE parent_request_id = $1", [request.id]))
        .rows[0].n,
    ).toBe(1);
    const remined = await pool.query(
      "SELECT request_id, block_hash FROM crossfill.request_deposits WHERE tx_hash = $1",
      [second],
    );
    expect(remined.rows).toEqual([{ request_id: childId, block_hash: "0xblock" }]);
    // (earlier tests' refunds still queued are queued again after 2 s: only this one's count)
    expect(refunds).not.toContain(refund.id);
    expect(await refundsOf(childId)).toHaveLength(1);

    // Once its withdrawal is indexed, the child (not the parent) moves to refund.
    const txHash = hash();
    await pool.query("UPDATE crossfill.refunds SET status = 'sent', tx_hash = $2, amount = 600 WHERE id = $1", [
      refund.id,
      txHash,
    ]);
    await pool.query(
      `INSERT INTO onchain_fixture.withdrawal VALUES ($1, 31338, $2, $3, '0xabc', 600, $4, 0, 12, '0xblock', 1700000100, '0xabc')`,
      [`${txHash}:0`, request.orderId, zeroAddress, txHash],
    );
    await run();
    expect((await statuses(childId)).at(-1)).toMatchObject({ to_status: "refund" });
    const child = await pool.query("SELECT status, fail_reason FROM crossfill.requests WHERE id = $1", [childId]);
    expect(child.rows[0]).toEqual({ status: "refund", fail_reason: "DOUBLE_SPEND" });
    expect((await statuses(request.id)).map((row) => row.to_status)).toEqual(["waiting", "pending"]);
  });

  it("takes a deposit a reorg mined again in another block for the payment it is, until its first block is found gone", async () => {
    const request = await insertTestRequest(pool);
    const txHash = hash();
    await deposit(request.orderId, { tx_hash: txHash });
    await run();
    expect(enqueued).toEqual([request.id]);
    // Mined again in another block (the indexer replaces its row): not a second payment, so no child and no refund,
    // whether or not the request was filled meanwhile.
    await pool.query("UPDATE onchain_fixture.deposit SET block_hash = '0xremined', log_index = 4 WHERE tx_hash = $1", [
      txHash,
    ]);
    enqueued = [];
    await run();
    const children = () =>
      pool.query("SELECT status, fail_reason FROM crossfill.requests WHERE parent_request_id = $1", [request.id]);
    expect((await children()).rows).toEqual([]);
    expect(await refundsOf(request.id)).toEqual([]);
    expect(enqueued).toEqual([]);
    expect((await statuses(request.id)).map((row) => row.to_status)).toEqual(["waiting", "pending"]);

    // Where the fill's check cannot follow it there (jobs/createFillProcessor.ts moves it when it can), it fails the request unpaid:
    // the deposit in its new block is then a payment of its own, refunded as a child.
    await withTransaction(pool, async (client) => {
      await markDepositReorged(
        client,
        { chainId: 31338, txHash, position: 0, blockHash: "0xblock" },
        { reason: "deposit mined in another block" },
      );
      await transitionRequest(client, { requestId: request.id, to: "failure", failReason: "DEPOSIT_REORGED" });
    });
    await run();
    expect((await children()).rows).toEqual([{ status: "failure", fail_reason: "DOUBLE_SPEND" }]);
    const child = await pool.query("SELECT id FROM crossfill.requests WHERE parent_request_id = $1", [request.id]);
    const childRefunds = await refundsOf(child.rows[0].id);
    expect(childRefunds).toHaveLength(1);
    expect(refunds.filter((id) => id === childRefunds[0].id)).toHaveLength(1);
  });

  it("applies one pass's deposits side by side, and one request's deposits in the order they were paid", async () => {
    const others = await Promise.all(Array.from({ length: 6 }, () => insertTestRequest(pool)));
    const paidTwice = await insertTestRequest(pool);
    const [first, second] = [hash(), hash()];
    // in the order found: the paid-twice request's second deposit comes after its first, others between them
    await deposit(paidTwice.orderId, { tx_hash: first, log_index: 1 });
    for (const [index, request] of others.entries()) await deposit(request.orderId, { log_index: 2 + index });
    await deposit(paidTwice.orderId, { tx_hash: second, log_index: 9, amount: "700" });
    await run();
    for (const request of [...others, paidTwice])
      expect((await statuses(request.id)).map((row) => row.to_status)).toEqual(["waiting", "pending"]);
    const ours = [...others, paidTwice].map((request) => request.id);
    // each queued once (earlier tests' requests still pending are queued again by the pass)
    expect(enqueued.filter((id) => ours.includes(id)).sort()).toEqual(ours.sort());
    const applied = await pool.query(
      "SELECT request_id, tx_hash FROM crossfill.request_deposits WHERE tx_hash = ANY($1)",
      [[first, second]],
    );
    const childId = childRequestId(paidTwice.id, { chainId: 31338, txHash: second, position: 9 });
    expect(applied.rows.sort((a, b) => a.tx_hash.localeCompare(b.tx_hash))).toEqual(
      [
        { request_id: paidTwice.id, tx_hash: first },
        { request_id: childId, tx_hash: second },
      ].sort((a, b) => a.tx_hash.localeCompare(b.tx_hash)),
    );
    expect((await refundsOf(childId)).map((refund) => refund.reason)).toEqual(["DOUBLE_SPEND"]);
  });

  it("applies a pass's on-time first deposits in one transaction, each once with two passes at once; the rest each in its own", async () => {
    const onTime = await Promise.all(Array.from({ length: 5 }, () => insertTestRequest(pool)));
    const underpaid = await insertTestRequest(pool);
    const expired = await insertTestRequest(pool, { deadline: new Date(Date.now() - 60_000) });
    for (const [index, request] of onTime.entries()) await deposit(request.orderId, { log_index: 20 + index });
    await deposit(underpaid.orderId, { log_index: 30, amount: "10" });
    await deposit(expired.orderId, { log_index: 31, timestamp: Math.floor(Date.now() / 1000) });
    await Promise.all([run(), run()]);
    const { rows } = await pool.query<{
      request_id: string;
      to_status: string;
      fail_reason: string | null;
      at: string;
    }>(
      `SELECT request_id, to_status, fail_reason, created_at::text AS at FROM crossfill.status_events
        WHERE request_id = ANY($1) AND to_status <> 'waiting' ORDER BY id`,
      [[...onTime, underpaid, expired].map((request) => request.id)],
    );
    const of = (request: { id: string }) => rows.filter((row) => row.request_id === request.id);
    for (const request of onTime)
      expect(of(request)).toEqual([expect.objectContaining({ to_status: "pending", fail_reason: null })]);
    // now() is a transaction's start: the five moved together.
    expect(new Set(onTime.map((request) => of(request)[0]!.at)).size).toBe(1);
    expect(of(underpaid)).toEqual([
      expect.objectContaining({ to_status: "failure", fail_reason: "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL" }),
    ]);
    expect(of(expired)).toEqual([expect.objectContaining({ to_status: "failure", fail_reason: "ORDER_EXPIRED" })]);
    for (const request of [underpaid, expired]) expect(of(request)[0]!.at).not.toBe(of(onTime[0]!)[0]!.at);
    const ids = onTime.map((request) => request.id);
    expect(enqueued.filter((id) => ids.includes(id)).sort()).toEqual([...ids].sort());
    const { rows: applied } = await pool.query(
      "SELECT request_id, amount::text, tx_fee::text FROM crossfill.request_deposits WHERE request_id = ANY($1)",
      [ids],
    );
    expect(applied).toHaveLength(5);
    for (const row of applied) expect(row).toMatchObject({ amount: "1000", tx_fee: "21000000000000" });
    const { rows: amounts } = await pool.query("SELECT fill_amount::text FROM crossfill.requests WHERE id = ANY($1)", [
      ids,
    ]);
    expect(amounts.map((row) => row.fill_amount)).toEqual(Array(5).fill(amounts[0].fill_amount));
    expect(BigInt(amounts[0].fill_amount)).toBeGreaterThan(0n);
  });

  it("confirms a receipt's fill indexed while the receipt's transaction is still open: it waits for it, no deadlock", async () => {
    const request = await insertTestRequest(pool);
    await deposit(request.orderId);
    await run();
    const fillTx = hash();
    const errors: string[] = [];
    const logger = pino({ level: "warn" }, { write: (line: string) => void errors.push(line) });
    // The receipt's path: the request's success, then its fill, in one transaction — open while the indexer's row lands.
    const receipt = await pool.connect();
    await receipt.query("BEGIN");
    await transitionRequest(receipt, { requestId: request.id, to: "success", details: { confirmedBy: "receipt" } });
    await pool.query(
      `INSERT INTO onchain_fixture.fill VALUES ($1, 31339, $2, '0xsolver', $3, '0xrecipient', 990, $4, 0, 20, '0xb', 1700000002, '0xsolver', 1)`,
      [`31339:${fillTx}:0`, request.id, zeroAddress, fillTx],
    );
    const reconciled = run(logger);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await recordReceiptFill(receipt, {
      chainId: 31339,
      txHash: fillTx,
      position: 0,
      requestId: request.id,
      currency: zeroAddress,
      recipient: "0xrecipient",
      amount: 990n,
      blockNumber: 20n,
      blockHash: "0xb",
      timestamp: 1700000002n,
      txFee: 1n,
    });
    await receipt.query("COMMIT");
    receipt.release();
    await reconciled;
    const [[fill]] = await fillsOfRequests(pool, [request.id]);
    expect(fill).toMatchObject({ txHash: fillTx, provisional: false, disagreement: null });
    expect(errors).toEqual([]);
  });

  it("moves a failed request to refund once its refund's withdrawal is indexed", async () => {
    const request = await insertTestRequest(pool);
    await deposit(request.orderId, { amount: "1" });
    await run();
    const [refund] = await refundsOf(request.id);
    const txHash = hash();
    await pool.query("UPDATE crossfill.refunds SET status = 'sent', tx_hash = $2, amount = 1 WHERE id = $1", [
      refund.id,
      txHash,
    ]);
    await run();
    expect((await statuses(request.id)).at(-1)?.to_status).toBe("failure");
    await pool.query(
      `INSERT INTO onchain_fixture.withdrawal VALUES ('w', 31338, $1, $2, '0xr', 1, $3, 0, 11, '0xb', 1700000001, '0xsolver')`,
      [request.orderId, zeroAddress, txHash],
    );
    await run();
    await run();
    expect((await statuses(request.id)).map((row) => row.to_status)).toEqual(["waiting", "failure", "refund"]);
    expect((await refundsOf(request.id))[0].status).toBe("confirmed");
  });

  it("takes a reverted refund an operator holds for paid once a reorg mines its withdrawal again and it is indexed", async () => {
    const request = await insertTestRequest(pool);
    await deposit(request.orderId, { amount: "1" });
    await run();
    const [refund] = await refundsOf(request.id);
    const txHash = hash();
    // As the refund job leaves a withdrawal that reverted: manual, its transaction kept.
    await pool.query(
      "UPDATE crossfill.refunds SET status = 'manual', tx_hash = $2, amount = 1, refund_fail_reason = 'MANUAL_REFUND_REQUIRED' WHERE id = $1",
      [refund.id, txHash],
    );
    await pool.query("UPDATE crossfill.requests SET refund_fail_reason = 'MANUAL_REFUND_REQUIRED' WHERE id = $1", [
      request.id,
    ]);
    await pool.query(
      `INSERT INTO onchain_fixture.withdrawal VALUES ('w-again', 31338, $1, $2, '0xr', 1, $3, 0, 12, '0xb2', 1700000002, '0xsolver')`,
      [request.orderId, zeroAddress, txHash],
    );
    await run();
    expect((await refundsOf(request.id))[0].status).toBe("confirmed");
    expect((await statuses(request.id)).map((row) => row.to_status)).toEqual(["waiting", "failure", "refund"]);
    const { rows } = await pool.query("SELECT refund_fail_reason FROM crossfill.requests WHERE id = $1", [request.id]);
    expect(rows[0].refund_fail_reason).toBeNull();
  });

  it("re-queues a pending request whose fill job was lost", async () => {
    const request = await insertTestRequest(pool);
    await deposit(request.orderId);
    await run();
    enqueued = [];
    // queued again only once it has been pending for a while: its deposits pass queues it first
    await run();
    expect(enqueued).not.toContain(request.id);
    await pool.query("UPDATE crossfill.requests SET updated_at = now() - interval '1 minute' WHERE id = $1", [
      request.id,
    ]);
    await run();
    expect(enqueued).toContain(request.id);
  });

  it("ignores deposits for orders it never quoted", async () => {
    await deposit(hash());
    expect(await run()).toMatchObject({ deposits: 0 });
  });

  it("refunds a deposit made after the deadline (ORDER_EXPIRED), or re-prices it when the quote allowed late payment", async () => {
    const past = new Date(Date.now() - 60_000);
    const late = { tx_hash: hash() };
    const expired = await insertTestRequest(pool, { deadline: past });
    await pool.query(
      `INSERT INTO onchain_fixture.deposit VALUES ($1, 31338, $2, '0xabc', $3, 1000, $4, 0, 10, '0xblock', $5, '0xabc')`,
      [`31338:${late.tx_hash}:0`, expired.orderId, zeroAddress, late.tx_hash, Math.floor(Date.now() / 1000)],
    );
    await run();
    expect((await statuses(expired.id)).at(-1)).toEqual({ to_status: "failure", fail_reason: "ORDER_EXPIRED" });
    expect(await refundsOf(expired.id)).toMatchObject([{ reason: "ORDER_EXPIRED", status: "queued" }]);

    const tolerant = await insertTestRequest(pool, {
      deadline: past,
      latePaymentSlippageBps: 100n,
      quote: { fees: { relayer: { amount: "10" } } },
    });
    const onTime = { tx_hash: hash() };
    await pool.query(
      `INSERT INTO onchain_fixture.deposit VALUES ($1, 31338, $2, '0xabc', $3, 1000, $4, 0, 10, '0xblock', $5, '0xabc')`,
      [`31338:${onTime.tx_hash}:0`, tolerant.orderId, zeroAddress, onTime.tx_hash, Math.floor(Date.now() / 1000)],
    );
    await run();
    expect((await statuses(tolerant.id)).at(-1)).toEqual({ to_status: "pending", fail_reason: null });
    const { rows } = await pool.query("SELECT fill_amount FROM crossfill.requests WHERE id = $1", [tolerant.id]);
    // 1000 in, 10 of quoted fees, ETH to ETH at one price: 990, the quoted output
    expect(rows[0].fill_amount).toBe("990");
  });

  it("attack: a late deposit with no fresh price is neither filled at the stale one nor refunded; applied once one is back", async () => {
    // The real price layer over one source whose ETH answer is as old as the test says (max age 1 s).
    let observedAt = Date.now() - 60_000;
    const prices = priceSourceOf(
      createPriceChain({
        feeds: [
          {
            name: "feed",
            keys: new Set(["ETH"]),
            fetch: async () => new Map([["ETH", { priceE18: 3000n * 10n ** 18n, observedAt, source: "feed" }]]),
          },
        ],
        maxAgeMs: () => 1_000,
        deviationBps: 100n,
        timeoutMs: 1_000,
        refreshMs: 0,
        backoff: { baseMs: 0, maxMs: 0 },
      }),
    );
    const now = Math.floor(Date.now() / 1000);
    const past = new Date(Date.now() - 60_000);
    const tolerant = await insertTestRequest(pool, {
      deadline: past,
      latePaymentSlippageBps: 100n,
      quote: { fees: { relayer: { amount: "10" } } },
    });
    // Another request's late deposit, which needs no price (its quote allowed no late payment): not held up.
    const expired = await insertTestRequest(pool, { deadline: past });
    const [first, second] = [hash(), hash()];
    await deposit(tolerant.orderId, { tx_hash: first, log_index: 1, timestamp: now });
    await deposit(expired.orderId, { log_index: 2, timestamp: now });
    // The tolerant order paid twice: the second waits with the first, so the first stays the request's deposit.
    await deposit(tolerant.orderId, { tx_hash: second, log_index: 3, timestamp: now });
    const warnings: string[] = [];
    const logger = pino({ level: "warn" }, { write: (line: string) => void warnings.push(line) });

    const stale = await reconcileDeposits({ ...deps(logger), prices });
    expect(stale.deferred).toEqual([tolerant.id]);
    expect((await statuses(expired.id)).at(-1)).toEqual({ to_status: "failure", fail_reason: "ORDER_EXPIRED" });
    expect((await statuses(tolerant.id)).map((event) => event.to_status)).toEqual(["waiting"]);
    expect(await refundsOf(tolerant.id)).toEqual([]);
    const recorded = await pool.query(
      "SELECT count(*)::int AS n FROM crossfill.request_deposits WHERE tx_hash = ANY($1)",
      [[first, second]],
    );
    expect(recorded.rows[0].n).toBe(0);
    expect(enqueued).not.toContain(tolerant.id);
    expect(warnings.map((line) => JSON.parse(line))).toMatchObject([
      {
        level: 40,
        requestId: tolerant.id,
        txHash: first,
        reason: expect.stringMatching(/no fresh price of ETH/),
        passesSinceLast: 0,
      },
    ]);
    expect(warnings[0]).not.toContain('"stack"');
    // Still stale on the next pass: still waiting, and not logged again within the minute.
    expect((await reconcileDeposits({ ...deps(logger), prices })).deferred).toEqual([tolerant.id]);
    expect(warnings).toHaveLength(1);

    observedAt = Date.now();
    expect((await reconcileDeposits({ ...deps(), prices })).deferred).toEqual([]);
    expect((await statuses(tolerant.id)).map((event) => event.to_status)).toEqual(["waiting", "pending"]);
    const { rows } = await pool.query("SELECT fill_amount FROM crossfill.requests WHERE id = $1", [tolerant.id]);
    expect(rows[0].fill_amount).toBe("990");
    // The second payment became its child (DOUBLE_SPEND), refunded; the first is the request's deposit.
    expect(await refundsOf(childRequestId(tolerant.id, { chainId: 31338, txHash: second, position: 3 }))).toMatchObject(
      [{ reason: "DOUBLE_SPEND" }],
    );
  });

  it("leaves a fill indexed before its request's deposit is applied for the pass after it (the two passes run side by side)", async () => {
    const request = await insertTestRequest(pool);
    await deposit(request.orderId);
    await insertIndexedFill(pool, request.id, hash());
    // the fills pass first, as it may when the two run side by side: the fill is not read while the request waits
    expect(await reconcileFillsAndRefunds(deps())).toMatchObject({ fills: 0 });
    expect(await reconcileDeposits(deps())).toMatchObject({ deposits: 1 });
    expect(await reconcileFillsAndRefunds(deps())).toMatchObject({ fills: 1 });
    expect(await reconcileFillsAndRefunds(deps())).toMatchObject({ fills: 0 });
    expect((await statuses(request.id)).map((event) => event.to_status)).toEqual(["waiting", "pending", "success"]);
  });

  it("applies a poller's facts like Ponder's: its deposit moves the request to pending, its fill to success", async () => {
    const request = await insertTestRequest(pool);
    // The request's origin and destination chains, here polled instead of indexed by Ponder.
    const origin = new FakePollerSource();
    origin.mine({
      deposits: [
        {
          txHash: "5VfydnLu4XwV2H2dLHPv22JxhLbYJruaM9YTaGY30TZjd4re",
          position: 0,
          orderId: request.orderId,
          depositor: "0xabc",
          currency: zeroAddress,
          amount: 1000n,
          txFrom: "0xabc",
          txFee: 5000n,
        },
      ],
    });
    const destination = new FakePollerSource();
    destination.mine();
    await pollChain(origin, 31338);
    expect(await run()).toMatchObject({ deposits: 1 });
    expect(enqueued).toContain(request.id);
    expect((await statuses(request.id)).at(-1)).toEqual({ to_status: "pending", fail_reason: null });
    destination.mine({
      fills: [
        {
          txHash: "3nQv8GkXbqXjVfZHh1yXVYwfZ3t8zPe4y2M1U6Hn5vJk",
          position: 0,
          requestId: request.id,
          currency: zeroAddress,
          recipient: request.recipient,
          amount: 990n,
          txFee: 5000n,
        },
      ],
    });
    await pollChain(destination, 31339);
    expect(await run()).toMatchObject({ fills: 1 });
    expect((await statuses(request.id)).map((row) => row.to_status)).toEqual(["waiting", "pending", "success"]);
    const applied = await pool.query("SELECT tx_hash FROM crossfill.request_deposits WHERE request_id = $1", [
      request.id,
    ]);
    expect(applied.rows).toEqual([{ tx_hash: "5VfydnLu4XwV2H2dLHPv22JxhLbYJruaM9YTaGY30TZjd4re" }]);
  });

  const indexFill = (requestId: string, txHash: string) => insertIndexedFill(pool, requestId, txHash);

  it("takes an indexed fill of a request that succeeded on its receipt as confirmation, and logs one that disagrees", async () => {
    const logged: Array<{ level: number; msg: string; requestId?: string }> = [];
    const logger = pino({ level: "info" }, { write: (line: string) => void logged.push(JSON.parse(line)) });
    const appFees = [
      {
        recipient: "0x00000000000000000000000000000000000000a3",
        bps: "100",
        amount: "10",
        amountFormatted: "0",
        amountUsd: "0.00003",
      },
    ];
    const [agrees, disagrees] = [
      await insertTestRequest(pool, { quote: { appFees } }),
      await insertTestRequest(pool, { quote: { appFees } }),
    ];
    const sent = new Map<string, string>();
    for (const [nonce, request] of [agrees, disagrees].entries()) {
      const txHash = hash();
      sent.set(request.id, txHash);
      await insertFillAttempt(pool, {
        requestId: request.id,
        chainId: 31339,
        solver: "0xsolver",
        nonce,
        txHash,
        rawTx: "0x00",
        currency: zeroAddress,
        amount: 990n,
        recipient: request.recipient,
      });
      await pool.query("UPDATE crossfill.requests SET status = 'success' WHERE id = $1", [request.id]);
    }
    await indexFill(agrees.id, sent.get(agrees.id)!);
    const other = hash();
    await indexFill(disagrees.id, other);
    expect(await run(logger)).toMatchObject({ fills: 2 });
    const disagreements = logged.filter((line) => line.msg.startsWith("indexed fill disagrees"));
    expect(disagreements.map((line) => line.requestId)).toEqual([disagrees.id]);
    expect(disagreements[0].level).toBe(50);
    // both indexed fills are recorded with their requests, neither moves them again
    const { rows } = await pool.query(
      "SELECT request_id, tx_hash FROM crossfill.request_fills WHERE request_id = ANY($1) ORDER BY tx_hash",
      [[agrees.id, disagrees.id]],
    );
    expect(rows).toHaveLength(2);
    expect(rows.find((row) => row.request_id === disagrees.id)?.tx_hash).toBe(other);
    for (const request of [agrees, disagrees])
      expect(await statuses(request.id)).toEqual([{ to_status: "waiting", fail_reason: null }]);
    // The agreeing fill earns its app fees as an indexed fill that moved the request would; the other earns none.
    const earned = await pool.query("SELECT request_id FROM crossfill.app_fee_earnings WHERE request_id = ANY($1)", [
      [agrees.id, disagrees.id],
    ]);
    expect(earned.rows).toEqual([{ request_id: agrees.id }]);
  });

  it("drops the unsigned refund of a failed request whose fill is indexed after all, and alerts an operator", async () => {
    const [unsigned, signed] = [await insertTestRequest(pool), await insertTestRequest(pool)];
    const deposits = new Map<string, string>();
    for (const request of [unsigned, signed]) {
      deposits.set(request.id, hash());
      await deposit(request.orderId, { tx_hash: deposits.get(request.id) });
    }
    await run();
    // Both failed as a fill taken for cancelled would be, their refunds queued; one refund is signed already.
    for (const request of [unsigned, signed]) {
      await withTransaction(pool, (client) =>
        failRequest(client, {
          request,
          from: ["pending"],
          failReason: "TRANSACTION_NOT_INCLUDED",
          deposit: {
            chainId: 31338,
            txHash: deposits.get(request.id)!,
            position: 0,
            currency: zeroAddress,
            amount: 1000n,
            depositor: "0xabc",
          },
        }),
      );
    }
    const refundTx = hash();
    await pool.query(
      "UPDATE crossfill.refunds SET status = 'sent', tx_hash = $2, amount = 1000 WHERE request_id = $1",
      [signed.id, refundTx],
    );
    // The fills land anyway.
    await indexFill(unsigned.id, hash());
    await indexFill(signed.id, hash());
    await run();
    await run();
    expect(await refundsOf(unsigned.id)).toEqual([]);
    expect(await refundsOf(signed.id)).toMatchObject([{ status: "sent" }]);
    // The two requests are applied side by side: their alerts in either order.
    const alerts = (await listOpenOperatorAlerts(pool))
      .filter((alert) => [unsigned.id, signed.id].includes(alert.subject))
      .sort((a, b) => a.kind.localeCompare(b.kind));
    expect(alerts.map(({ kind, subject }) => ({ kind, subject }))).toEqual([
      { kind: "FILL_AFTER_FAILURE", subject: unsigned.id },
      { kind: "FILL_AND_REFUND", subject: signed.id },
    ]);
    expect(alerts[1].details).toMatchObject({ refundTxHash: refundTx });
    for (const request of [unsigned, signed])
      expect((await statuses(request.id)).map((row) => row.to_status)).toEqual(["waiting", "pending", "failure"]);
  });

  it("confirms a provisional receipt fill with the indexed one, and replaces one the indexer contradicts", async () => {
    const logged: Array<{ level: number; msg: string; requestId?: string }> = [];
    const logger = pino({ level: "info" }, { write: (line: string) => void logged.push(JSON.parse(line)) });
    const [agrees, disagrees] = [await insertTestRequest(pool), await insertTestRequest(pool)];
    const receiptHashes = new Map<string, string>();
    for (const request of [agrees, disagrees]) {
      const txHash = hash();
      receiptHashes.set(request.id, txHash);
      await pool.query("UPDATE crossfill.requests SET status = 'success' WHERE id = $1", [request.id]);
      await recordReceiptFill(pool, {
        chainId: 31339,
        txHash,
        position: 0,
        requestId: request.id,
        currency: zeroAddress,
        recipient: request.recipient,
        amount: 990n,
        blockNumber: 11n,
        blockHash: "0xblock",
        timestamp: 1_700_000_000n,
        txFee: 1n,
      });
    }
    await indexFill(agrees.id, receiptHashes.get(agrees.id)!);
    const other = hash();
    await indexFill(disagrees.id, other);
    expect(await run(logger)).toMatchObject({ fills: 2 });
    const [[confirmed], [replaced]] = await fillsOfRequests(pool, [agrees.id, disagrees.id]);
    expect(confirmed).toMatchObject({ txHash: receiptHashes.get(agrees.id), provisional: false, disagreement: null });
    expect(replaced).toMatchObject({
      txHash: other,
      provisional: false,
      disagreement: { reason: "indexed another fill", receiptTxHash: receiptHashes.get(disagrees.id) },
    });
    const disagreements = logged.filter((line) => line.msg.startsWith("indexed fill disagrees"));
    expect(disagreements.map((line) => line.requestId)).toContain(disagrees.id);
    expect(disagreements.map((line) => line.requestId)).not.toContain(agrees.id);
    // applied once: the next pass finds nothing
    expect(await run(logger)).toMatchObject({ fills: 0 });
    for (const request of [agrees, disagrees])
      expect(await statuses(request.id)).toEqual([{ to_status: "waiting", fail_reason: null }]);
  });

  it("moves a failed request to refund once a poller records its refund's withdrawal", async () => {
    const request = await insertTestRequest(pool);
    await deposit(request.orderId, { amount: "1" });
    await run();
    const [refund] = await refundsOf(request.id);
    const txHash = "4tYp7sRefundTx";
    await pool.query("UPDATE crossfill.refunds SET status = 'sent', tx_hash = $2, amount = 1 WHERE id = $1", [
      refund.id,
      txHash,
    ]);
    const source = new FakePollerSource();
    source.mine({
      withdrawals: [
        { txHash, position: 0, orderId: request.orderId, currency: zeroAddress, recipient: "0xr", amount: 1n },
      ],
    });
    await pollChain(source, 31338);
    await run();
    expect((await statuses(request.id)).map((row) => row.to_status)).toEqual(["waiting", "failure", "refund"]);
  });

  it("applies a mempool deposit at once, and moves it to its block when mined: one deposit, no child", async () => {
    const request = await insertTestRequest(pool);
    const txid = randomBytes(32).toString("hex");
    const seen = {
      chainId: 31338,
      txHash: txid,
      position: 0,
      orderId: request.orderId,
      depositor: "bcrt1qdepositor",
      currency: zeroAddress,
      amount: 1000n,
      blockNumber: 0n,
      blockHash: MEMPOOL_BLOCK_HASH,
      timestamp: 1700000000n,
      txFrom: "bcrt1qdepositor",
      txFee: 300n,
    };
    // Other tests' pending requests are queued again beside it: count this one's fills only.
    const fillsQueued = () => enqueued.filter((id) => id === request.id).length;
    await replaceMempoolDepositFacts(pool, 31338, [seen]);
    expect(await run()).toMatchObject({ deposits: 1 });
    expect(fillsQueued()).toBe(1);
    // The poller records its block: the sighting gives way to the block's fact.
    const mined = { ...seen, blockNumber: 7n, blockHash: "00ab", timestamp: 1700000100n };
    await dropMempoolDepositFacts(pool, 31338, [txid]);
    await insertDepositFacts(pool, [mined], POLLER_SOURCE);
    enqueued = [];
    fillKeys = [];
    expect(await run()).toMatchObject({ deposits: 1 });
    expect(fillsQueued()).toBe(1);
    // A job of its own for the block: the fill job run at the sighting must not swallow it (same requeue window).
    expect(fillKeys[enqueued.indexOf(request.id)]).toBe("mined-00ab");
    expect(await run()).toMatchObject({ deposits: 0 });
    const applied = await pool.query(
      "SELECT request_id, block_hash, block_number::int FROM crossfill.request_deposits WHERE tx_hash = $1",
      [txid],
    );
    expect(applied.rows).toEqual([{ request_id: request.id, block_hash: "00ab", block_number: 7 }]);
    expect((await statuses(request.id)).map((row) => row.to_status)).toEqual(["waiting", "pending"]);
    // Other tests' refunds older than the requeue window are queued again beside it: this request has none.
    expect(await refundsOf(request.id)).toEqual([]);
  });

  it("forgets mempool sightings that left the mempool, keeps those still there", async () => {
    const fact = (txHash: string) => ({
      chainId: 31337,
      txHash,
      position: 0,
      orderId: "",
      depositor: "d",
      currency: zeroAddress,
      amount: 1n,
      blockNumber: 0n,
      blockHash: MEMPOOL_BLOCK_HASH,
      timestamp: 1n,
      txFrom: "d",
      txFee: 1n,
    });
    await replaceMempoolDepositFacts(pool, 31337, [fact("a1"), fact("a2")]);
    await replaceMempoolDepositFacts(pool, 31337, [fact("a2"), fact("a3")]);
    const rows = await pool.query(
      "SELECT tx_hash FROM crossfill.deposit_facts WHERE chain_id = 31337 ORDER BY tx_hash",
    );
    expect(rows.rows.map((row) => row.tx_hash)).toEqual(["a2", "a3"]);
  });
});
