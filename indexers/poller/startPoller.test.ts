import pino from "pino";
import { describe, expect, it } from "vitest";
import { FakePollerSource } from "../../test/support/fakePollerSource.js";
import { useMigratedDatabase } from "../../test/support/useMigratedDatabase.js";
import type { SourceBlock } from "./blockWalk.js";
import { type StartPollerOptions, startPoller } from "./startPoller.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for a condition by polling it (never for a duration): a slow machine only makes the test slower. */
async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let waited = 0; !(await condition()); waited += 5) {
    if (waited > 20_000) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

let nextChainId = 900_000;
let nextTx = 0;
const deposit = (orderId: string): SourceBlock["deposits"][number] => ({
  txHash: `DepTx${++nextTx}AbC`,
  position: 0,
  orderId,
  depositor: "BcRt1Depositor",
  currency: "Native",
  amount: 1_000n,
  txFrom: "BcRt1Depositor",
  txFee: 150n,
});
const fill = (requestId: string): SourceBlock["fills"][number] => ({
  txHash: `FillTx${++nextTx}AbC`,
  position: 1,
  requestId,
  currency: "Native",
  recipient: "BcRt1Recipient",
  amount: 990n,
  txFee: 140n,
});
const withdrawal = (orderId: string): SourceBlock["withdrawals"][number] => ({
  txHash: `WdTx${++nextTx}AbC`,
  position: 2,
  orderId,
  currency: "Native",
  recipient: "BcRt1Refundee",
  amount: 900n,
});

describe("startPoller", () => {
  const db = useMigratedDatabase({ max: 4 });
  const silent = pino({ level: "silent" });

  const start = (source: FakePollerSource, chainId: number, options: Partial<StartPollerOptions> = {}) =>
    startPoller({
      pool: db.pool,
      source,
      chainId,
      startHeight: 0,
      pollEveryMs: 5,
      retryDelay: () => 1,
      logger: silent,
      ...options,
    });
  const deposits = async (chainId: number) =>
    (
      await db.pool.query(
        `SELECT order_id, tx_hash, depositor, amount::text, block_number::int, block_hash, timestamp::int, tx_fee::text, source
           FROM crossfill.deposit_facts WHERE chain_id = $1 ORDER BY block_number, tx_hash`,
        [chainId],
      )
    ).rows;
  const factCounts = async (chainId: number) =>
    (
      await db.pool.query(
        `SELECT (SELECT count(*)::int FROM crossfill.deposit_facts WHERE chain_id = $1) AS deposits,
                (SELECT count(*)::int FROM crossfill.fill_facts WHERE chain_id = $1) AS fills,
                (SELECT count(*)::int FROM crossfill.withdrawal_facts WHERE chain_id = $1) AS withdrawals`,
        [chainId],
      )
    ).rows[0];
  const cursorRow = async (chainId: number) =>
    (
      await db.pool.query(
        "SELECT height::int, block_hash FROM crossfill.poller_blocks WHERE chain_id = $1 ORDER BY height DESC LIMIT 1",
        [chainId],
      )
    ).rows[0];

  it("records facts up to head − confirmations + 1 and, restarted, goes on from its cursor: no block read twice, no fact twice", async () => {
    const chainId = nextChainId++;
    const source = new FakePollerSource();
    for (let height = 0; height < 10; height++)
      source.mine(
        height === 3
          ? { deposits: [deposit("Order3")], fills: [fill("Req3")], withdrawals: [withdrawal("Order0")] }
          : height === 8
            ? { deposits: [deposit("Order8")] }
            : {},
      );
    const first = start(source, chainId, { confirmations: 3, batchBlocks: 4 });
    expect(first.health()).toMatchObject({ chainId, head: null, cursor: null, lag: null, lastSuccessAt: null });
    await until(() => first.health().cursor === 7, "the cursor at 7");
    // Idle passes at the head read nothing further while block 8 lacks its confirmations.
    const heads = source.calls.filter((call) => call === "head").length;
    await until(() => source.calls.filter((call) => call === "head").length >= heads + 3, "three more passes");
    await first.stop();
    expect(first.health()).toMatchObject({ head: 9, cursor: 7, lag: 2, lastError: null });
    expect(first.health().lastSuccessAt).toBeInstanceOf(Date);
    expect(await cursorRow(chainId)).toEqual({ height: 7, block_hash: source.blocks[7]!.hash });
    expect(await factCounts(chainId)).toEqual({ deposits: 1, fills: 1, withdrawals: 1 });
    // Written as the chain encodes them, stamped with their block.
    expect(await deposits(chainId)).toEqual([
      {
        order_id: "Order3",
        tx_hash: source.blocks[3]!.deposits[0]!.txHash,
        depositor: "BcRt1Depositor",
        amount: "1000",
        block_number: 3,
        block_hash: source.blocks[3]!.hash,
        timestamp: source.blocks[3]!.timestamp,
        tx_fee: "150",
        source: "poller",
      },
    ]);

    source.mine();
    source.mine({ deposits: [deposit("Order10")] });
    const second = start(source, chainId, { confirmations: 3, batchBlocks: 4 });
    await until(() => second.health().cursor === 9, "the cursor at 9");
    await second.stop();
    const blockReads = source.calls.filter((call) => call.startsWith("block "));
    expect(blockReads).toEqual(Array.from({ length: 10 }, (_, height) => `block ${height}`));
    expect((await deposits(chainId)).map((row) => row.order_id)).toEqual(["Order3", "Order8"]);
    expect(await factCounts(chainId)).toEqual({ deposits: 2, fills: 1, withdrawals: 1 });
  });

  it("walks a reorg back to the common ancestor, deletes the orphaned blocks' facts and records the new branch", async () => {
    const chainId = nextChainId++;
    const source = new FakePollerSource();
    const moved = deposit("OrderMoved");
    for (let height = 0; height < 5; height++) source.mine();
    source.mine({ deposits: [moved] });
    source.mine({ deposits: [deposit("OrderDropped")], fills: [fill("ReqDropped")] });
    source.mine({ withdrawals: [withdrawal("OrderDropped")] });
    const logLines: Array<{ msg: string; ancestor?: number }> = [];
    const logger = pino({ level: "warn" }, { write: (line: string) => void logLines.push(JSON.parse(line)) });
    const poller = start(source, chainId, { logger });
    await until(() => poller.health().cursor === 7, "the cursor at 7");
    expect(await factCounts(chainId)).toEqual({ deposits: 2, fills: 1, withdrawals: 1 });

    // Blocks 5… replaced by a longer branch where the first deposit is mined again (block 6) and the rest is gone.
    source.calls.length = 0;
    source.orphanFrom(5);
    source.mine();
    source.mine({ deposits: [moved] });
    source.mine();
    source.mine();
    await until(() => poller.health().cursor === 8 && source.calls.includes("block 8"), "the new branch");
    expect(source.calls.filter((call) => call.startsWith("hash "))).toEqual(["hash 7", "hash 6", "hash 5", "hash 4"]);
    expect(await deposits(chainId)).toMatchObject([
      { order_id: "OrderMoved", block_number: 6, block_hash: source.blocks[6]!.hash },
    ]);
    expect(await factCounts(chainId)).toEqual({ deposits: 1, fills: 0, withdrawals: 0 });
    expect(logLines).toContainEqual(
      expect.objectContaining({ msg: "poller: reorg, orphaned facts deleted", ancestor: 4 }),
    );

    // The tip replaced at the same height, nothing newer: the idle pass notices it.
    source.orphanFrom(8);
    const tip = source.mine({ fills: [fill("ReqAtTip")] });
    await until(async () => (await cursorRow(chainId))?.block_hash === tip.hash, "the replaced tip");
    expect(await factCounts(chainId)).toEqual({ deposits: 1, fills: 1, withdrawals: 0 });
    await poller.stop();
    expect(poller.health().lastError).toBeNull();
  });

  it("fails every pass on a reorg deeper than the blocks it keeps, and touches nothing", async () => {
    const chainId = nextChainId++;
    const source = new FakePollerSource();
    for (let height = 0; height < 6; height++) source.mine({ deposits: [deposit(`Order${height}`)] });
    const poller = start(source, chainId, { maxReorgDepth: 3 });
    await until(() => poller.health().cursor === 5, "the cursor at 5");
    source.orphanFrom(1);
    for (let height = 1; height < 7; height++) source.mine();
    await until(() => poller.health().lastError !== null, "a failed pass");
    await poller.stop();
    expect(poller.health().lastError?.message).toBe(
      `chain ${chainId}: reorg deeper than the 3 blocks kept (maxReorgDepth)`,
    );
    expect(await factCounts(chainId)).toMatchObject({ deposits: 6 });
    expect((await cursorRow(chainId)).height).toBe(5);
  });

  it("backs off on source errors by failures in a row, logs each new error once, and records the last one in health", async () => {
    const chainId = nextChainId++;
    const source = new FakePollerSource();
    source.mine({ deposits: [deposit("OrderAfterOutage")] });
    const outage = () => new Error("esplora: 503");
    source.headFailures.push(outage(), outage(), outage());
    const retries: number[] = [];
    const warnings: string[] = [];
    const poller = start(source, chainId, {
      retryDelay: (failures) => {
        retries.push(failures);
        return 1;
      },
      logger: pino({ level: "warn" }, { write: (line: string) => void warnings.push(JSON.parse(line).err.message) }),
    });
    await until(() => poller.health().cursor === 0, "the block after the outage");
    expect(retries).toEqual([1, 2, 3]);
    expect(warnings).toEqual(["esplora: 503"]);
    const health = poller.health();
    expect(health.lastError?.message).toBe("esplora: 503");
    expect(health.lastSuccessAt!.getTime()).toBeGreaterThanOrEqual(health.lastError!.at.getTime());

    source.headFailures.push(new Error("esplora: timeout"));
    await until(() => retries.length === 4, "the next failure");
    await poller.stop();
    // A failure after a success counts from one again.
    expect(retries).toEqual([1, 2, 3, 1]);
    expect(warnings).toEqual(["esplora: 503", "esplora: timeout"]);
  });

  it("stops after the source call under way, recording what it read, and calls the source no more", async () => {
    const chainId = nextChainId++;
    const source = new FakePollerSource();
    for (let height = 0; height < 5; height++) source.mine({ deposits: [deposit(`Order${height}`)] });
    let release!: () => void;
    source.gate = new Promise((resolve) => (release = resolve));
    const poller = start(source, chainId);
    await until(() => source.calls.includes("block 0"), "the slow call");
    let stopped = false;
    const stopping = poller.stop().then(() => (stopped = true));
    await sleep(20);
    expect(stopped).toBe(false);
    release();
    await stopping;
    const calls = [...source.calls];
    expect(calls.filter((call) => call.startsWith("block "))).toEqual(["block 0"]);
    expect((await cursorRow(chainId)).height).toBe(0);
    expect(await factCounts(chainId)).toMatchObject({ deposits: 1 });
    await sleep(30);
    expect(source.calls).toEqual(calls);
  });

  it("writes a batch's facts with its cursor in one transaction: a failed cursor write leaves no fact", async () => {
    const chainId = nextChainId++;
    const source = new FakePollerSource();
    for (let height = 0; height < 4; height++) source.mine({ deposits: [deposit(`Order${height}`)] });
    source.mine({ fills: [fill("Req4")], withdrawals: [withdrawal("Order0")] });
    // The cursor write of this chain fails, after the batch's facts were written in the same transaction.
    await db.pool.query(`
      CREATE FUNCTION public.fail_cursor() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'cursor write failed'; END $$;
      CREATE TRIGGER fail_cursor BEFORE INSERT ON crossfill.poller_blocks
        FOR EACH ROW WHEN (NEW.chain_id = ${chainId}) EXECUTE FUNCTION public.fail_cursor();`);
    const poller = start(source, chainId, { batchBlocks: 10 });
    await until(() => poller.health().lastError !== null, "a failed pass");
    expect(poller.health().lastError?.message).toBe("cursor write failed");
    expect(await factCounts(chainId)).toEqual({ deposits: 0, fills: 0, withdrawals: 0 });
    expect(await cursorRow(chainId)).toBeUndefined();

    await db.pool.query("DROP TRIGGER fail_cursor ON crossfill.poller_blocks");
    await until(() => poller.health().cursor === 4, "the retried batch");
    await poller.stop();
    expect(await factCounts(chainId)).toEqual({ deposits: 4, fills: 1, withdrawals: 1 });
  });

  it("records a fact once when its block is read again (a lost cursor), keyed like Ponder's rows", async () => {
    const chainId = nextChainId++;
    const source = new FakePollerSource();
    for (let height = 0; height < 3; height++)
      source.mine({ deposits: [deposit(`Order${height}`)], fills: [fill(`Req${height}`)] });
    const first = start(source, chainId);
    await until(() => first.health().cursor === 2, "the cursor at 2");
    await first.stop();
    await db.pool.query("DELETE FROM crossfill.poller_blocks WHERE chain_id = $1", [chainId]);
    const second = start(source, chainId);
    await until(() => second.health().cursor === 2, "the cursor at 2 again");
    await second.stop();
    expect(await factCounts(chainId)).toEqual({ deposits: 3, fills: 3, withdrawals: 0 });
  });
});
