// Real processes: an anvil chain (1 s blocks), Postgres, `ponder start` beside the watcher for the comparison.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { pino } from "pino";
import { type Hex, keccak256, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { devnetWalletClient } from "../../devnet/devnetWalletClient.js";
import { freePort } from "../../devnet/freePort.js";
import { startDevnetChains } from "../../devnet/startDevnetChains.js";
import { HEAD_WATCHER_SOURCE, insertDepositFacts } from "../../schema/chainFacts.js";
import { migrate } from "../../schema/migrate.js";
import { anvilReorg } from "../../test/support/anvilReorg.js";
import { depositNative } from "../../test/support/depositNative.js";
import { type RpcProxy, startRpcProxy } from "../../test/support/startRpcProxy.js";
import { type TcpProxy, startTcpProxy } from "../../test/support/startTcpProxy.js";
import { createTestDatabase } from "../../test/support/testDatabase.js";
import { type DepositWatcher, startDepositWatcher } from "./startDepositWatcher.js";
import { type EvmIndexer, startEvmIndexer } from "./startEvmIndexer.js";

type Devnet = Awaited<ReturnType<typeof startDevnetChains>>;

const logger = pino({ level: "silent" });
const newOrderId = () => keccak256(toHex(`watcher:${Math.random()}`));
// log_index as bigint on both sides: ours is bigint (a TON lt), Ponder's an integer; the values must agree.
const COLUMNS =
  "chain_id::bigint, tx_hash, log_index::bigint, order_id, depositor, currency, amount, block_number, block_hash, timestamp, tx_from, tx_fee";

describe("startDepositWatcher", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let devnet: Devnet;
  let pool: pg.Pool;
  let tmp: string;
  let indexer: EvmIndexer;
  let proxy: TcpProxy;
  let watcher: DepositWatcher;
  let chain: Devnet["chains"][number];

  beforeAll(async () => {
    db = await createTestDatabase("crossfill_watcher");
    pool = new pg.Pool({ connectionString: db.url, max: 4 });
    await migrate(pool);
    devnet = await startDevnetChains({ chainIds: [71_021], blockTime: 1 });
    chain = devnet.chains[0]!;
    tmp = mkdtempSync(path.join(tmpdir(), "crossfill-watcher-"));
    const chainsFile = path.join(tmp, "chains.json");
    writeFileSync(chainsFile, JSON.stringify({ chains: devnet.chains }));
    indexer = await startEvmIndexer({ databaseUrl: db.url, chainsFile, port: await freePort(), logLevel: "warn" });
    // The watcher reaches the node through a proxy the test can cut.
    proxy = await startTcpProxy({ host: "127.0.0.1", port: Number(new URL(chain.rpcUrl).port) });
    watcher = startDepositWatcher({
      pool,
      logger,
      chain: { ...chain, wsUrl: `ws://${proxy.address}` },
      reconnect: { baseMs: 100, maxMs: 500 },
    });
    await vi.waitFor(() => expect(watcher.health().head).not.toBeNull(), { timeout: 10_000 });
  }, 120_000);

  afterAll(async () => {
    await watcher?.stop();
    await proxy?.close();
    await indexer?.stop();
    await pool?.end();
    await devnet?.stop();
    await db?.drop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  const deposit = (orderId: Hex, payer = devnet.accounts[0]!) => depositNative(chain, payer, orderId, 12_345n);
  const headFacts = async (orderId: Hex) =>
    (
      await pool.query(`SELECT ${COLUMNS} FROM crossfill.deposit_facts WHERE order_id = $1 AND source = $2`, [
        orderId,
        HEAD_WATCHER_SOURCE,
      ])
    ).rows;
  const ponderRows = async (orderId: Hex) =>
    (await pool.query(`SELECT ${COLUMNS} FROM ${indexer.viewsSchema}.deposit WHERE order_id = $1`, [orderId])).rows;

  it("records a deposit of a new head exactly as Ponder records it", async () => {
    const orderId = newOrderId();
    const receipt = await deposit(orderId);
    await vi.waitFor(async () => expect(await headFacts(orderId)).toHaveLength(1), { timeout: 5_000 });
    await vi.waitFor(async () => expect(await ponderRows(orderId)).toHaveLength(1), { timeout: 10_000 });
    // One deposit, one fact: the reconcile merges the two sources by every column.
    expect(await headFacts(orderId)).toEqual(await ponderRows(orderId));
    expect((await headFacts(orderId))[0]).toMatchObject({
      tx_hash: receipt.transactionHash,
      block_hash: receipt.blockHash,
      amount: "12345",
      tx_fee: (receipt.gasUsed * receipt.effectiveGasPrice).toString(),
    });
    expect(watcher.health()).toMatchObject({
      chainId: chain.id,
      connected: true,
      deposits: "log subscription",
      lastError: null,
    });
  });

  it("records the deposits of several transactions in one block, each as Ponder does", async () => {
    const orderIds = [newOrderId(), newOrderId(), newOrderId()];
    const receipts = await Promise.all(orderIds.map((orderId, i) => deposit(orderId, devnet.accounts[i + 1])));
    for (const [i, orderId] of orderIds.entries()) {
      await vi.waitFor(async () => expect(await ponderRows(orderId)).toHaveLength(1), { timeout: 10_000 });
      expect(await headFacts(orderId)).toEqual(await ponderRows(orderId));
      expect((await headFacts(orderId))[0].block_hash).toBe(receipts[i]!.blockHash);
    }
  });

  /** Runs `test` with another watcher in the test's place, reaching the node through `proxy`. */
  async function withWatcherThrough(rpcProxy: RpcProxy, test: (other: DepositWatcher) => Promise<void>): Promise<void> {
    await watcher.stop();
    const other = startDepositWatcher({ pool, logger, chain: { ...chain, wsUrl: rpcProxy.url } });
    try {
      await vi.waitFor(() => expect(other.health().connected).toBe(true), { timeout: 10_000 });
      await test(other);
    } finally {
      await other.stop();
      await rpcProxy.close();
      watcher = startDepositWatcher({
        pool,
        logger,
        chain: { ...chain, wsUrl: `ws://${proxy.address}` },
        reconnect: { baseMs: 100, maxMs: 500 },
      });
      await vi.waitFor(() => expect(watcher.health().connected).toBe(true), { timeout: 10_000 });
    }
  }

  it("asks for each head's logs where the node refuses log subscriptions", async () => {
    const refusing = await startRpcProxy(`ws://${proxy.address}`, {
      refuse: ({ method, params }) => method === "eth_subscribe" && params?.[0] === "logs",
    });
    await withWatcherThrough(refusing, async (fetching) => {
      expect(fetching.health().deposits).toBe("eth_getLogs per head");
      const orderId = newOrderId();
      await deposit(orderId);
      await vi.waitFor(async () => expect(await headFacts(orderId)).toHaveLength(1), { timeout: 5_000 });
      expect(fetching.health()).toMatchObject({ recorded: 1, lastError: null });
      await vi.waitFor(async () => expect(await ponderRows(orderId)).toHaveLength(1), { timeout: 10_000 });
      expect(await headFacts(orderId)).toEqual(await ponderRows(orderId));
    });
  });

  it("forgets a block's deposits as soon as the node announces their logs removed", async () => {
    const rpcProxy = await startRpcProxy(`ws://${proxy.address}`);
    await withWatcherThrough(rpcProxy, async (other) => {
      expect(other.health().deposits).toBe("log subscription");
      const orderId = newOrderId();
      const receipt = await deposit(orderId);
      await vi.waitFor(async () => expect(await headFacts(orderId)).toHaveLength(1), { timeout: 5_000 });
      // What a node sends for a reorg's dropped block (anvil's own reorg sends nothing).
      const log = receipt.logs[0]!;
      rpcProxy.notify("logs", {
        address: log.address,
        topics: log.topics,
        data: log.data,
        blockHash: log.blockHash,
        blockNumber: toHex(log.blockNumber),
        transactionHash: log.transactionHash,
        transactionIndex: toHex(log.transactionIndex),
        logIndex: toHex(log.logIndex),
        removed: true,
      });
      await vi.waitFor(async () => expect(await headFacts(orderId)).toHaveLength(0), { timeout: 2_000 });
      expect(other.health()).toMatchObject({ orphaned: 1, lastError: null });
    });
  });

  it("says nothing of a socket the node closes while the process is stopping", async () => {
    const rpcProxy = await startRpcProxy(`ws://${proxy.address}`);
    let stopping = false;
    const other = startDepositWatcher({
      pool,
      logger,
      chain: { ...chain, wsUrl: rpcProxy.url },
      stopping: () => stopping,
    });
    try {
      await vi.waitFor(() => expect(other.health().connected).toBe(true), { timeout: 10_000 });
      stopping = true;
      await rpcProxy.close();
      await vi.waitFor(() => expect(other.health().connected).toBe(false), { timeout: 5_000 });
      expect(other.health().lastError).toBeNull();
    } finally {
      await other.stop();
    }
  });

  it("deletes the deposits of a block a reorg orphans, as Ponder deletes its rows", async () => {
    const orderId = newOrderId();
    const receipt = await deposit(orderId);
    await vi.waitFor(async () => expect(await headFacts(orderId)).toHaveLength(1), { timeout: 5_000 });
    const orphanedBefore = watcher.health().orphaned;
    const head = await devnetWalletClient({
      rpcUrl: chain.rpcUrl,
      chainId: chain.id,
      privateKey: devnet.accounts[0]!.privateKey,
    }).getBlockNumber({ cacheTime: 0 });
    // Replace the deposit's block and those after it with empty ones: anvil does not mine the transaction again.
    await anvilReorg(chain.rpcUrl, Number(head - receipt.blockNumber) + 1);
    await vi.waitFor(async () => expect(await headFacts(orderId)).toHaveLength(0), { timeout: 10_000 });
    expect(watcher.health().orphaned).toBe(orphanedBefore + 1);
    await vi.waitFor(async () => expect(await ponderRows(orderId)).toHaveLength(0), { timeout: 10_000 });
  });

  it("reconnects after the node's socket drops, and checks the blocks it recorded", async () => {
    proxy.cut();
    await vi.waitFor(() => expect(watcher.health().connected).toBe(false), { timeout: 5_000 });
    // A fact of a block that is not in the chain, as if recorded before a reorg while the socket was down.
    const head = watcher.health().head!;
    const stray = newOrderId();
    await insertDepositFacts(
      pool,
      [
        {
          chainId: chain.id,
          txHash: keccak256(toHex(`stray:${stray}`)),
          position: 0,
          orderId: stray,
          depositor: devnet.accounts[0]!.address.toLowerCase(),
          currency: "0x0000000000000000000000000000000000000000",
          amount: 1n,
          blockNumber: BigInt(head),
          blockHash: keccak256(toHex(`not a block:${stray}`)),
          timestamp: 0n,
          txFrom: devnet.accounts[0]!.address.toLowerCase(),
          txFee: 0n,
        },
      ],
      HEAD_WATCHER_SOURCE,
    );
    proxy.restore();
    await vi.waitFor(() => expect(watcher.health().connected).toBe(true), { timeout: 10_000 });
    const orderId = newOrderId();
    await deposit(orderId);
    await vi.waitFor(async () => expect(await headFacts(orderId)).toHaveLength(1), { timeout: 5_000 });
    expect(watcher.health().lastError).toMatch(/closed|socket/i);

    // A second watcher, as after a restart: what the first recorded in a block not in the chain is deleted.
    const restarted = startDepositWatcher({ pool, logger, chain });
    try {
      await vi.waitFor(async () => expect(await headFacts(stray)).toHaveLength(0), { timeout: 10_000 });
      expect(await headFacts(orderId)).toHaveLength(1);
    } finally {
      await restarted.stop();
    }
  });
});
