// End to end with real processes: two anvil chains (1 s blocks), Postgres, `ponder start`.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { type Hex, createPublicClient, keccak256, parseEther, toHex, webSocket, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { depositoryAbi, receiverAbi, testTokenAbi } from "../../contracts/abis.js";
import { devnetWalletClient } from "../../devnet/devnetWalletClient.js";
import { freePort } from "../../devnet/freePort.js";
import { startDevnetChains } from "../../devnet/startDevnetChains.js";
import { ponderLiveQueryChannel } from "../../schema/chainFactsNotices.js";
import type { EvmChainConfig } from "../../src/chains/chainConfig.js";
import { createTestDatabase } from "../../test/support/testDatabase.js";
import { type EvmIndexer, indexerBuildSchema, startEvmIndexer } from "./startEvmIndexer.js";

type Devnet = Awaited<ReturnType<typeof startDevnetChains>>;
type Table = "deposit" | "fill" | "withdrawal";

const clientFor = (chain: EvmChainConfig, account: { privateKey: Hex }) =>
  devnetWalletClient({ rpcUrl: chain.rpcUrl, chainId: chain.id, privateKey: account.privateKey });

/** Local arrival time of each new head over the chain's websocket: the moment the block is out. */
function watchHeads(chain: EvmChainConfig) {
  const arrivals = new Map<bigint, number>();
  const client = createPublicClient({ transport: webSocket(chain.wsUrl ?? chain.rpcUrl.replace(/^http/, "ws")) });
  const unwatch = client.watchBlockNumber({
    emitOnBegin: false,
    onBlockNumber: (n) => {
      if (!arrivals.has(n)) arrivals.set(n, performance.now());
    },
  });
  return { arrivals, stop: unwatch };
}

const newId = (label: string) => keccak256(toHex(`${label}:${Math.random()}`));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe("startEvmIndexer", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let devnet: Devnet;
  let pool: pg.Pool;
  let tmp: string;
  let chainsFile: string;
  let port: number;
  let indexer: EvmIndexer | undefined;
  let origin: EvmChainConfig;
  let destination: EvmChainConfig;
  const logs: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase("crossfill_evmidx");
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    devnet = await startDevnetChains({ chainIds: [71_001, 71_002], blockTime: 1 });
    [origin, destination] = devnet.chains;
    tmp = mkdtempSync(path.join(tmpdir(), "crossfill-evm-indexer-"));
    chainsFile = path.join(tmp, "chains.json");
    writeFileSync(chainsFile, JSON.stringify({ chains: devnet.chains }, null, 2));
    port = await freePort();
  });

  afterAll(async () => {
    await indexer?.stop();
    await pool?.end();
    await devnet?.stop();
    await db?.drop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  const start = async () => {
    const startedAt = performance.now();
    try {
      indexer = await startEvmIndexer({ databaseUrl: db.url, chainsFile, port, onLog: (line) => logs.push(line) });
    } catch (error) {
      console.log(logs.slice(-50).join("\n"));
      throw error;
    }
    const ms = Math.round(performance.now() - startedAt);
    console.log(`[evm indexer] ready in ${ms} ms (schema ${indexer.schema})`);
    return ms;
  };

  /** Polls the view every 5 ms; returns the rows and when they became visible. */
  const waitForRows = async (table: Table, column: string, value: unknown, timeoutMs = 5_000) => {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const { rows } = await pool.query(`SELECT * FROM crossfill_onchain.${table} WHERE ${column} = $1`, [value]);
      if (rows.length > 0) return { rows, visibleAt: performance.now() };
      if (performance.now() > deadline)
        throw new Error(`no ${table} row with ${column} = ${value} after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };

  const depositNative = async (chain: EvmChainConfig, orderId: Hex, amount: bigint) => {
    const user = devnet.accounts[0]!;
    const client = clientFor(chain, user);
    const hash = await client.writeContract({
      address: chain.depository as Hex,
      abi: depositoryAbi,
      functionName: "depositNative",
      args: [user.address, orderId],
      value: amount,
    });
    return client.waitForTransactionReceipt({ hash });
  };

  const depositCount = async () =>
    (await pool.query("SELECT count(*)::int AS n FROM crossfill_onchain.deposit")).rows[0].n as number;

  it("derives the build schema from code and chains", () => {
    const schema = indexerBuildSchema(chainsFile);
    expect(schema).toMatch(/^ponder_[0-9a-f]{12}$/);
    expect(indexerBuildSchema(chainsFile)).toBe(schema);
    const other = path.join(tmp, "other.json");
    writeFileSync(other, JSON.stringify({ chains: devnet.chains.slice(0, 1) }));
    expect(indexerBuildSchema(other)).not.toBe(schema);
  });

  it("fails fast with Ponder's own output when the build fails, and when the port is taken", async () => {
    const broken = path.join(tmp, "broken.json");
    writeFileSync(broken, JSON.stringify({ chains: [{ ...devnet.chains[0], depository: "0x1234" }] }));
    const brokenPort = await freePort();
    await expect(startEvmIndexer({ databaseUrl: db.url, chainsFile: broken, port: brokenPort })).rejects.toThrow(
      /ponder exited before it was ready[\s\S]*invalid chains file/,
    );

    const { createServer } = await import("node:net");
    const squatter = createServer();
    const squatterPort = await freePort();
    await new Promise<void>((resolve) => squatter.listen(squatterPort, "127.0.0.1", resolve));
    try {
      await expect(startEvmIndexer({ databaseUrl: db.url, chainsFile, port: squatterPort })).rejects.toThrow(
        /is not free/,
      );
    } finally {
      squatter.close();
    }
  });

  it("backfills, then indexes deposits, fills and withdrawals in real time into the views", async () => {
    const user = devnet.accounts[0]!;
    const userAddress = user.address.toLowerCase();

    // Before the indexer starts: found by the backfill.
    const earlyOrder = newId("early");
    const early = await depositNative(origin, earlyOrder, parseEther("0.5"));
    expect(early.status).toBe("success");

    await start();
    // What the stale-lock guard relies on: a live Ponder's sessions are named after its schema.
    const sessions = await pool.query(
      "SELECT DISTINCT application_name FROM pg_stat_activity WHERE application_name LIKE $1 ORDER BY 1",
      [`${indexer!.schema}_%`],
    );
    expect(sessions.rows.map((row) => row.application_name)).toContain(`${indexer!.schema}_internal`);

    const [earlyRow] = (await waitForRows("deposit", "order_id", earlyOrder)).rows;
    const earlyBlock = await clientFor(origin, user).getBlock({ blockNumber: early.blockNumber });
    expect(earlyRow).toEqual({
      id: `${origin.id}:${early.transactionHash}:${early.logs[0]!.logIndex}`,
      chain_id: origin.id,
      order_id: earlyOrder,
      depositor: userAddress,
      currency: zeroAddress,
      amount: parseEther("0.5").toString(),
      tx_hash: early.transactionHash,
      log_index: early.logs[0]!.logIndex,
      block_number: early.blockNumber.toString(),
      block_hash: early.blockHash,
      timestamp: earlyBlock.timestamp.toString(),
      tx_from: userAddress,
      tx_fee: (early.gasUsed * early.effectiveGasPrice).toString(),
    });

    // What wakes the reconcile: Ponder's live-query notice on the views schema's channel, naming the changed tables.
    const changedTables = new Set<string>();
    const listener = await pool.connect();
    listener.on("notification", (message) => {
      for (const table of JSON.parse(message.payload ?? "[]") as string[]) changedTables.add(table);
    });
    await listener.query(`LISTEN "${ponderLiveQueryChannel(indexer!.viewsSchema)}"`);

    const latencies: number[] = [];
    const originHeads = watchHeads(origin);
    const destinationHeads = watchHeads(destination);
    try {
      // ERC-20 deposit: approve, then depositErc20 (the devnet minted test tokens to the user).
      const token = origin.currencies[0]!.address as Hex;
      const client = clientFor(origin, user);
      const amount = 1_234_567n;
      const approve = await client.writeContract({
        address: token,
        abi: testTokenAbi,
        functionName: "approve",
        args: [origin.depository as Hex, amount],
      });
      await client.waitForTransactionReceipt({ hash: approve });
      const erc20Order = newId("erc20");
      const depositHash = await client.writeContract({
        address: origin.depository as Hex,
        abi: depositoryAbi,
        functionName: "depositErc20",
        args: [user.address, token, amount, erc20Order],
      });
      const erc20 = await waitForRows("deposit", "order_id", erc20Order);
      const erc20Receipt = await client.waitForTransactionReceipt({ hash: depositHash });
      expect(erc20.rows).toHaveLength(1);
      expect(erc20.rows[0]).toMatchObject({
        id: `${origin.id}:${depositHash}:${erc20Receipt.logs.at(-1)!.logIndex}`,
        chain_id: origin.id,
        order_id: erc20Order,
        depositor: userAddress,
        currency: token.toLowerCase(),
        amount: amount.toString(),
        tx_hash: depositHash,
        block_number: erc20Receipt.blockNumber.toString(),
        block_hash: erc20Receipt.blockHash,
        tx_from: userAddress,
        tx_fee: (erc20Receipt.gasUsed * erc20Receipt.effectiveGasPrice).toString(),
      });
      const erc20Mined = originHeads.arrivals.get(erc20Receipt.blockNumber);
      if (erc20Mined !== undefined) latencies.push(erc20.visibleAt - erc20Mined);

      // Fill on the other chain by the solver (native, no calls).
      const solver = clientFor(destination, devnet.solver);
      const requestId = newId("request");
      const recipient = "0x000000000000000000000000000000000000bEEF";
      const fillAmount = parseEther("0.25");
      const fillHash = await solver.writeContract({
        address: destination.receiver as Hex,
        abi: receiverAbi,
        functionName: "fill",
        args: [requestId, zeroAddress, fillAmount, recipient, []],
        value: fillAmount,
      });
      const filled = await waitForRows("fill", "request_id", requestId);
      const fillReceipt = await solver.waitForTransactionReceipt({ hash: fillHash });
      expect(filled.rows).toHaveLength(1);
      expect(filled.rows[0]).toMatchObject({
        id: `${destination.id}:${fillHash}:${fillReceipt.logs.at(-1)!.logIndex}`,
        chain_id: destination.id,
        request_id: requestId,
        solver: devnet.solver.address.toLowerCase(),
        currency: zeroAddress,
        recipient: recipient.toLowerCase(),
        amount: fillAmount.toString(),
        tx_hash: fillHash,
        block_number: fillReceipt.blockNumber.toString(),
        block_hash: fillReceipt.blockHash,
        tx_from: devnet.solver.address.toLowerCase(),
        tx_fee: (fillReceipt.gasUsed * fillReceipt.effectiveGasPrice).toString(),
      });
      const fillMined = destinationHeads.arrivals.get(fillReceipt.blockNumber);
      if (fillMined !== undefined) latencies.push(filled.visibleAt - fillMined);

      // Refund of the early deposit by the Depository's owner (the solver).
      const owner = clientFor(origin, devnet.solver);
      const refundHash = await owner.writeContract({
        address: origin.depository as Hex,
        abi: depositoryAbi,
        functionName: "withdraw",
        args: [earlyOrder, zeroAddress, user.address, parseEther("0.5")],
      });
      const refunded = await waitForRows("withdrawal", "order_id", earlyOrder);
      const refundReceipt = await owner.waitForTransactionReceipt({ hash: refundHash });
      expect(refunded.rows).toHaveLength(1);
      expect(refunded.rows[0]).toMatchObject({
        chain_id: origin.id,
        order_id: earlyOrder,
        currency: zeroAddress,
        recipient: userAddress,
        amount: parseEther("0.5").toString(),
        tx_hash: refundHash,
        block_number: refundReceipt.blockNumber.toString(),
        tx_from: devnet.solver.address.toLowerCase(),
      });
      const refundMined = originHeads.arrivals.get(refundReceipt.blockNumber);
      if (refundMined !== undefined) latencies.push(refunded.visibleAt - refundMined);

      // A few more deposits for the latency sample.
      for (let i = 0; i < 3; i++) {
        const orderId = newId(`sample${i}`);
        const hash = await client.writeContract({
          address: origin.depository as Hex,
          abi: depositoryAbi,
          functionName: "depositNative",
          args: [user.address, orderId],
          value: 1n,
        });
        const { visibleAt } = await waitForRows("deposit", "order_id", orderId);
        const receipt = await client.waitForTransactionReceipt({ hash });
        const mined = originHeads.arrivals.get(receipt.blockNumber);
        if (mined !== undefined) latencies.push(visibleAt - mined);
      }
      await vi.waitFor(() => expect([...changedTables].sort()).toEqual(["deposit", "fill", "withdrawal"]));
    } finally {
      originHeads.stop();
      destinationHeads.stop();
      await listener.query("UNLISTEN *");
      listener.release();
    }
    console.log(
      `[evm indexer] new head → row visible in the view: ${latencies.map((ms) => `${ms.toFixed(0)} ms`).join(", ")}` +
        ` (median ${median(latencies).toFixed(0)} ms)`,
    );
    expect(latencies.length).toBeGreaterThanOrEqual(4);
    expect(median(latencies)).toBeLessThan(500);
  });

  it("restarts on the same database: rows stay, missed and new deposits are indexed", async () => {
    const before = await depositCount();
    expect(before).toBeGreaterThan(0);
    const firstSchema = indexer!.schema;
    const stoppedAt = performance.now();
    await indexer!.stop();
    indexer = undefined;
    console.log(`[evm indexer] stopped in ${Math.round(performance.now() - stoppedAt)} ms`);

    // While the indexer is down: picked up on restart.
    const missedOrder = newId("missed");
    await depositNative(origin, missedOrder, 7n);

    await start();
    expect(indexer!.schema).toBe(firstSchema);
    expect(logs.some((line) => line.includes("Detected crash recovery"))).toBe(true);
    // Resolved only after catching up with the heads: every fact is back in the views.
    expect(await depositCount()).toBe(before + 1);

    await waitForRows("deposit", "order_id", missedOrder);
    const liveOrder = newId("after-restart");
    await depositNative(origin, liveOrder, 9n);
    const { rows } = await waitForRows("deposit", "order_id", liveOrder);
    expect(rows[0]).toMatchObject({ amount: "9", chain_id: origin.id });
    expect(await depositCount()).toBe(before + 2);
  });

  it("restarts right after a crash without waiting for Ponder's stale lock", async () => {
    process.kill(indexer!.pid, "SIGKILL");
    await indexer!.stop();
    indexer = undefined;

    const seen = logs.length;
    const ms = await start();
    console.log(`[evm indexer] restarted after SIGKILL in ${Math.round(ms)} ms`);
    // Ponder would hold the killed app's lock for ~25 s and say so; a timed bound would flake on a loaded machine.
    expect(logs.slice(seen).filter((line) => line.includes("Schema is locked by a different Ponder app"))).toEqual([]);
    expect(logs.slice(seen).some((line) => line.includes("Detected crash recovery"))).toBe(true);
    const orderId = newId("after-crash");
    await depositNative(origin, orderId, 11n);
    await waitForRows("deposit", "order_id", orderId);
  });
});
