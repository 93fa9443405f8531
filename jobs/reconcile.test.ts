import { randomBytes } from "node:crypto";
import pg from "pg";
import pino from "pino";
import { zeroAddress } from "viem";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startPoller } from "../indexers/poller/startPoller.js";
import { insertDepositFact } from "../schema/chainFacts.js";
import { migrate } from "../schema/migrate.js";
import { FakePollerSource } from "../test/support/fakePollerSource.js";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { createTestDatabase } from "../test/support/testDatabase.js";
import { chainConfigSchema } from "../src/chains/chainConfig.js";
import { createChainRegistry } from "../src/chains/chainRegistry.js";
import { createStaticPriceSource } from "../src/pricing/priceSource.js";
import { childRequestId } from "../src/domain/childRequestId.js";
import { reconcile } from "./reconcile.js";

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

// Stand-ins for Ponder's published views: same names and columns, filled by the test.
const ONCHAIN_FIXTURE = `
  CREATE SCHEMA onchain_fixture;
  CREATE TABLE onchain_fixture.deposit (id text, chain_id integer, order_id text, depositor text, currency text, amount numeric(78,0),
    tx_hash text, log_index integer, block_number numeric(78,0), block_hash text, timestamp numeric(78,0), tx_from text, tx_fee numeric(78,0));
  CREATE TABLE onchain_fixture.fill (id text, chain_id integer, request_id text, solver text, currency text, recipient text,
    amount numeric(78,0), tx_hash text, log_index integer, block_number numeric(78,0), block_hash text, timestamp numeric(78,0), tx_from text,
    tx_fee numeric(78,0));
  CREATE TABLE onchain_fixture.withdrawal (id text, chain_id integer, order_id text, currency text, recipient text, amount numeric(78,0),
    tx_hash text, log_index integer, block_number numeric(78,0), block_hash text, timestamp numeric(78,0), tx_from text);`;

const hash = () => `0x${randomBytes(32).toString("hex")}`;

describe("reconcile", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: pg.Pool;
  let enqueued: string[];
  let refunds: string[];
  const run = () =>
    reconcile({
      pool,
      onchainSchema: "onchain_fixture",
      logger: pino({ level: "silent" }),
      enqueueFill: async (id) => void enqueued.push(id),
      enqueueRefund: async (id) => void refunds.push(id),
      registry,
      prices: createStaticPriceSource({ ETH: "3000" }),
    });
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
      ...overrides,
    };
    return pool.query(
      `INSERT INTO onchain_fixture.deposit VALUES ($1, $2, $3, '0xabc', $4, $5, $6, $7, 10, '0xblock', 1700000000, '0xabc', $8)`,
      [
        `${row.chain_id}:${row.tx_hash}:${row.log_index}`,
        row.chain_id,
        orderId,
        row.currency,
        row.amount,
        row.tx_hash,
        row.log_index,
        row.tx_fee,
      ],
    );
  };
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
    await insertDepositFact(
      pool,
      {
        chainId: 31338,
        txHash: depositTx,
        logIndex: 0,
        orderId: request.orderId,
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
    const childId = childRequestId(request.id, { chainId: 31338, txHash: second, logIndex: 0 });
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

    // A reorg mines the same duplicate in another block: the same child takes it, and no second refund is queued.
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
    expect(remined.rows).toContainEqual({ request_id: childId, block_hash: "0xother" });
    expect(refunds).toEqual([]);
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

  it("re-queues a pending request whose fill job was lost", async () => {
    const request = await insertTestRequest(pool);
    await deposit(request.orderId);
    await run();
    enqueued = [];
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

  it("applies a poller's facts like Ponder's: its deposit moves the request to pending, its fill to success", async () => {
    const request = await insertTestRequest(pool);
    // The request's origin and destination chains, here polled instead of indexed by Ponder.
    const origin = new FakePollerSource();
    origin.mine({
      deposits: [
        {
          txHash: "5VfydnLu4XwV2H2dLHPv22JxhLbYJruaM9YTaGY30TZjd4re",
          logIndex: 0,
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
          logIndex: 0,
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
        { txHash, logIndex: 0, orderId: request.orderId, currency: zeroAddress, recipient: "0xr", amount: 1n },
      ],
    });
    await pollChain(source, 31338);
    await run();
    expect((await statuses(request.id)).map((row) => row.to_status)).toEqual(["waiting", "failure", "refund"]);
  });
});
