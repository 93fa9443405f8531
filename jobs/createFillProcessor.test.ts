import { randomBytes } from "node:crypto";
import pg from "pg";
import pino from "pino";
import { type Address, type Hex, decodeFunctionData, encodeFunctionData, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type DevnetChains, startDevnetChains } from "../devnet/startDevnetChains.js";
import { getFillAttempt, insertFillAttempt } from "../schema/fillAttempts.js";
import { createFillLedger, fillLedgerIn } from "../schema/fillLedger.js";
import { withTransaction } from "../schema/withTransaction.js";
import { prepareSolverTransaction, signSolverTransaction, walletFor } from "../src/chains/evm/solverTransaction.js";
import { migrate } from "../schema/migrate.js";
import { type EvmChainClient, createEvmChainClient } from "../src/chains/evm/evmChainClient.js";
import { familyAdapters } from "../apps/families/familyAdapters.js";
import { depositNative } from "../test/support/depositNative.js";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { createTestDatabase } from "../test/support/testDatabase.js";
import { startRpcProxy } from "../test/support/startRpcProxy.js";
import { callTargetAbi, receiverAbi } from "../contracts/abis.js";
import { getRequest } from "../schema/requests.js";
import { createChainRegistry } from "../src/chains/chainRegistry.js";
import { createStaticPriceSource } from "../src/pricing/priceSource.js";
import { createReceiptConfirmer } from "./createReceiptConfirmer.js";
import { type FillDeps, createFillProcessor } from "./createFillProcessor.js";

describe("fill processor", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: pg.Pool;
  let devnet: DevnetChains;
  let processFill: ReturnType<typeof createFillProcessor>;
  let deps: FillDeps;
  // Tests drive anvil and sign their own stuck transactions through viem; the processor goes through the adapters.
  let client: (chainId: number) => EvmChainClient;
  const refunds: string[] = [];

  beforeAll(async () => {
    [db, devnet] = await Promise.all([
      createTestDatabase(),
      startDevnetChains({ chainIds: [31338, 31339], blockTime: 0 }),
    ]);
    pool = new pg.Pool({ connectionString: db.url, max: 6 });
    await migrate(pool);
    const clients = new Map(devnet.chains.map((chain) => [chain.id, createEvmChainClient(chain)]));
    client = (chainId) => clients.get(chainId)!;
    const logger = pino({ level: "silent" });
    const adapters = familyAdapters(devnet.chains, { evm: { solver: devnet.solver } });
    for (const solver of adapters.all("solver")) await solver.prepareSolver?.(createFillLedger(pool));
    deps = {
      pool,
      adapters,
      registry: createChainRegistry(devnet.chains),
      enqueueRefund: async (id: string) => void refunds.push(id),
      enqueueFill: async () => undefined,
      prices: createStaticPriceSource({ ETH: "3000", USDC: "1", WETH: "3000" }),
      debugReferrers: true,
      logger,
    };
    processFill = createFillProcessor(deps);
  });
  afterAll(async () => {
    await pool?.end();
    await devnet?.stop();
    await db?.drop();
  });

  /** A request with its deposit applied, as reconcile leaves it. */
  async function pendingRequest(currency: Address, amountOut: bigint) {
    const [origin, destination] = devnet.chains;
    const recipient = `0x${randomBytes(20).toString("hex")}` as Address;
    const request = await insertTestRequest(pool, {
      originChainId: origin.id,
      destinationChainId: destination.id,
      destinationCurrency: currency,
      recipient,
      amountIn: amountOut,
      amountOut,
      minimumAmountOut: amountOut,
    });
    // A real deposit on the origin chain: the fill checks it is still there before paying.
    const receipt = await depositNative(origin, devnet.accounts[0], request.orderId, amountOut);
    const hash = receipt.transactionHash;
    await pool.query(
      `INSERT INTO crossfill.request_deposits (chain_id, tx_hash, log_index, request_id, depositor, currency, amount, block_number, timestamp, block_hash)
       VALUES ($1, $2, 0, $3, '0xabc', $4, $5, $6, 1, $7)`,
      [
        origin.id,
        hash,
        request.id,
        zeroAddress,
        amountOut.toString(),
        receipt.blockNumber.toString(),
        receipt.blockHash,
      ],
    );
    await pool.query("UPDATE crossfill.requests SET status = 'pending', fill_amount = amount_out WHERE id = $1", [
      request.id,
    ]);
    return { request, recipient, destination: client(destination.id) };
  }

  /** A fill signed with the solver's next nonce and stored as the worker would, not broadcast; `change` alters it. */
  async function storeSignedFill(
    request: { id: string },
    recipient: Address,
    destination: EvmChainClient,
    amount: bigint,
    change: { data?: Hex; gas?: bigint } = {},
  ) {
    const prepared = await prepareSolverTransaction(destination, devnet.solver, {
      to: destination.chain.receiver as Address,
      data: encodeFunctionData({ abi: receiverAbi, functionName: "filled", args: [request.id as Hex] }),
      value: 0n,
    });
    return withTransaction(pool, async (db) => {
      const transaction = await signSolverTransaction(fillLedgerIn(db), destination, devnet.solver, {
        ...prepared,
        ...change,
      });
      await insertFillAttempt(db, {
        requestId: request.id,
        chainId: destination.chain.id,
        solver: devnet.solver.address,
        ...transaction,
        currency: zeroAddress,
        amount,
        recipient,
      });
      return transaction;
    });
  }

  it("moves the request to success on the fill's own receipt, without waiting for the indexer", async () => {
    const receipts = createReceiptConfirmer({
      pool,
      adapters: deps.adapters,
      registry: deps.registry,
      logger: deps.logger,
    });
    const withReceipts = createFillProcessor({ ...deps, receipts });
    const { request } = await pendingRequest(zeroAddress, 23_456n);
    const txHash = await withReceipts({ data: { requestId: request.id } });
    await vi.waitFor(async () => expect((await getRequest(pool, request.id))?.status).toBe("success"), {
      timeout: 5_000,
    });
    const { rows } = await pool.query(
      "SELECT to_status, details->>'fillTxHash' AS tx FROM crossfill.status_events WHERE request_id = $1 ORDER BY id",
      [request.id],
    );
    expect(rows.slice(-2)).toEqual([
      { to_status: "submitted", tx: txHash },
      { to_status: "success", tx: txHash },
    ]);
    // run again (a retried job): nothing is sent twice, nothing moves
    expect(await withReceipts({ data: { requestId: request.id } })).toBe("skipped: success");
    await receipts.close();
  });

  it("pays the recipient once, however often the job runs", async () => {
    const { request, recipient, destination } = await pendingRequest(zeroAddress, 12_345n);
    const first = await processFill({ data: { requestId: request.id } });
    const second = await processFill({ data: { requestId: request.id } });
    expect(second).toBe(first);
    await destination.publicClient.waitForTransactionReceipt({ hash: first as Hex });
    expect(await destination.publicClient.getBalance({ address: recipient })).toBe(12_345n);
    const status = await pool.query("SELECT status FROM crossfill.requests WHERE id = $1", [request.id]);
    expect(status.rows[0].status).toBe("submitted");
  });

  it("never refunds a request another run filled while this one was preparing its fill", async () => {
    const { request, recipient, destination } = await pendingRequest(zeroAddress, 3_333n);
    const job = { data: { requestId: request.id } };
    // The other run (another worker, a requeued job) signs, sends and mines the fill between this run's first look
    // and its simulation, which then reverts on the Receiver's "already filled".
    const racing = createFillProcessor({
      ...deps,
      adapters: {
        ...deps.adapters,
        solver: (chainId) => {
          const real = deps.adapters.solver(chainId);
          if (chainId !== destination.chain.id) return real;
          return {
            ...real,
            async prepareFill(order) {
              const hash = (await processFill(job)) as Hex;
              await destination.publicClient.waitForTransactionReceipt({ hash });
              return real.prepareFill(order);
            },
          };
        },
      },
    });
    expect(await racing(job)).toBe("skipped: a fill was sent meanwhile");
    expect(await destination.publicClient.getBalance({ address: recipient })).toBe(3_333n);
    const { rows } = await pool.query("SELECT status FROM crossfill.requests WHERE id = $1", [request.id]);
    expect(rows[0].status).toBe("submitted");
    const refund = await pool.query("SELECT id FROM crossfill.refunds WHERE request_id = $1", [request.id]);
    expect(refund.rows).toEqual([]);
  });

  it("never refunds a mined fill whose receipt the node fails to give once the solver's nonce has moved on", async () => {
    const { request, recipient, destination } = await pendingRequest(zeroAddress, 4_321n);
    // The worker's node, behind a proxy that makes receipt lookups fail (a provider timing out) while told to.
    let failReceipts = false;
    const proxy = await startRpcProxy(destination.chain.rpcUrl.replace(/^http/, "ws"), {
      refuse: ({ method }) =>
        failReceipts && method === "eth_getTransactionReceipt" && { code: -32603, message: "upstream timed out" },
    });
    try {
      const chains = devnet.chains.map((chain) =>
        chain.id === destination.chain.id ? { ...chain, rpcUrl: proxy.httpUrl } : chain,
      );
      const flaky = createFillProcessor({
        ...deps,
        adapters: familyAdapters(chains, { evm: { solver: devnet.solver } }),
      });
      const job = { data: { requestId: request.id } };
      const txHash = (await flaky(job)) as Hex;
      expect((await destination.publicClient.waitForTransactionReceipt({ hash: txHash })).status).toBe("success");
      failReceipts = true;
      // The nonce is spent (by the fill itself): without its receipt nothing says by what, so the job tries again.
      await expect(flaky(job)).rejects.toThrow();
      expect((await getRequest(pool, request.id))?.status).toBe("submitted");
      expect((await pool.query("SELECT id FROM crossfill.refunds WHERE request_id = $1", [request.id])).rows).toEqual(
        [],
      );
      failReceipts = false;
      expect(await flaky(job)).toBe(txHash);
    } finally {
      await proxy.close();
    }
    expect(await destination.publicClient.getBalance({ address: recipient })).toBe(4_321n);
    expect((await pool.query("SELECT id FROM crossfill.refunds WHERE request_id = $1", [request.id])).rows).toEqual([]);
  });

  it("refunds a fill whose nonce another transaction of the solver's key spent, naming that transaction", async () => {
    const { request, recipient, destination } = await pendingRequest(zeroAddress, 2_468n);
    // The fill is signed and stored, never broadcast (a crash); the key then sends something else on its nonce.
    const signed = await storeSignedFill(request, recipient, destination, 2_468n);
    const other = await walletFor(destination, devnet.solver).sendTransaction({
      to: devnet.solver.address,
      value: 0n,
      nonce: signed.nonce,
    });
    await destination.publicClient.waitForTransactionReceipt({ hash: other });
    await fetch(destination.chain.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "anvil_mine", params: ["0x5"] }),
    });
    expect(await processFill({ data: { requestId: request.id } })).toBe("failed: TRANSACTION_NOT_INCLUDED");
    const { rows } = await pool.query(
      "SELECT details->>'nonceSpentBy' AS spent_by FROM crossfill.status_events WHERE request_id = $1 AND to_status = 'failure'",
      [request.id],
    );
    expect(rows).toEqual([{ spent_by: other }]);
    expect(await destination.publicClient.getBalance({ address: recipient })).toBe(0n);
  });

  it("fills ERC-20s from the solver's approved inventory", async () => {
    const usdc = devnet.chains[1].currencies[0].address as Address;
    const { request, recipient, destination } = await pendingRequest(usdc, 5_000_000n);
    const txHash = (await processFill({ data: { requestId: request.id } })) as Hex;
    expect((await destination.publicClient.waitForTransactionReceipt({ hash: txHash })).status).toBe("success");
    expect(await destination.balanceOf(recipient, usdc)).toBe(5_000_000n);
  });

  it("re-sends the stored transaction after a crash between signing and broadcasting", async () => {
    const { request, recipient, destination } = await pendingRequest(zeroAddress, 777n);
    // Concurrent jobs for different requests: nonces must not collide or leave gaps.
    const others = [await pendingRequest(zeroAddress, 1n), await pendingRequest(zeroAddress, 2n)];
    const sent = await Promise.all(
      [request, ...others.map((o) => o.request)].map((r) => processFill({ data: { requestId: r.id } })),
    );
    const attempts = await Promise.all(
      sent.map((_, i) => getFillAttempt(pool, [request, ...others.map((o) => o.request)][i].id)),
    );
    expect(new Set(attempts.map((a) => a!.nonce)).size).toBe(3);
    for (const hash of sent)
      expect((await destination.publicClient.waitForTransactionReceipt({ hash: hash as Hex })).status).toBe("success");
    // The node forgets nothing here, so "crash" means: the job runs again with only the stored attempt to go on.
    await pool.query("UPDATE crossfill.requests SET status = 'pending' WHERE id = $1", [request.id]);
    expect(await processFill({ data: { requestId: request.id } })).toBe(sent[0]);
    expect(await destination.publicClient.getBalance({ address: recipient })).toBe(777n);
  });

  it("fails the request instead of filling when its deposit is no longer on the chain", async () => {
    const { request, recipient, destination } = await pendingRequest(zeroAddress, 4_242n);
    await pool.query("UPDATE crossfill.request_deposits SET tx_hash = $2 WHERE request_id = $1", [
      request.id,
      `0x${randomBytes(32).toString("hex")}`,
    ]);
    expect(await processFill({ data: { requestId: request.id } })).toBe("failed: DEPOSIT_REORGED");
    expect(await destination.publicClient.getBalance({ address: recipient })).toBe(0n);
    const { rows } = await pool.query("SELECT status, fail_reason FROM crossfill.requests WHERE id = $1", [request.id]);
    expect(rows[0]).toEqual({ status: "failure", fail_reason: "DEPOSIT_REORGED" });
    const reorg = await pool.query("SELECT reorg FROM crossfill.request_deposits WHERE request_id = $1", [request.id]);
    expect(reorg.rows[0].reorg).toMatchObject({
      source: "fill-check",
      reason: "deposit transaction not found",
      failReason: "DEPOSIT_REORGED",
    });
    expect(await getFillAttempt(pool, request.id)).toBeUndefined();
  });

  it("refunds instead of filling once the order's deadline and the fill window have passed", async () => {
    const { request, recipient, destination } = await pendingRequest(zeroAddress, 5_555n);
    await pool.query("UPDATE crossfill.requests SET deadline = now() - interval '1 hour' WHERE id = $1", [request.id]);
    expect(await processFill({ data: { requestId: request.id } })).toBe("failed: PROTOCOL_DEADLINE_EXPIRED");
    expect(await destination.publicClient.getBalance({ address: recipient })).toBe(0n);
    const refund = await pool.query("SELECT id, reason, refunds_request FROM crossfill.refunds WHERE request_id = $1", [
      request.id,
    ]);
    expect(refund.rows).toMatchObject([{ reason: "PROTOCOL_DEADLINE_EXPIRED", refunds_request: true }]);
    expect(refunds).toContain(refund.rows[0].id);
  });

  it("refunds instead of filling when the solver cannot cover the output (SOLVER_BALANCE_TOO_LOW)", async () => {
    const { request, recipient, destination } = await pendingRequest(zeroAddress, 6_666n);
    await pool.query("UPDATE crossfill.requests SET fill_amount = $2 WHERE id = $1", [
      request.id,
      (10n ** 30n).toString(),
    ]);
    expect(await processFill({ data: { requestId: request.id } })).toBe("failed: SOLVER_BALANCE_TOO_LOW");
    expect(await destination.publicClient.getBalance({ address: recipient })).toBe(0n);
    const refund = await pool.query("SELECT reason, deposited FROM crossfill.refunds WHERE request_id = $1", [
      request.id,
    ]);
    expect(refund.rows).toEqual([{ reason: "SOLVER_BALANCE_TOO_LOW", deposited: "6666" }]);
  });

  it("re-prices a fill that is not mined, then spends its nonce on a cancellation and refunds (TRANSACTION_NOT_INCLUDED)", async () => {
    const { request, recipient, destination } = await pendingRequest(zeroAddress, 8_888n);
    const patient = createFillProcessor({
      ...deps,
      // A second wide enough for the re-send below to fall inside it on a loaded machine.
      stuckFill: { bumpAfterMs: 1_000, maxBumps: 1, maxBroadcastFailures: 10 },
    });
    const rpc = (method: string, params: unknown[]) =>
      fetch(destination.chain.rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      });
    const run = () => patient({ data: { requestId: request.id } });
    const wait = () => new Promise((resolve) => setTimeout(resolve, 1_050));
    await rpc("evm_setAutomine", [false]);
    try {
      const first = await run();
      expect(await run()).toBe(first); // within the window: the same transaction, re-sent
      await wait();
      const bumped = await run();
      expect(bumped).not.toBe(first);
      const afterBump = (await getFillAttempt(pool, request.id))!;
      expect(afterBump).toMatchObject({ txHash: bumped, bumps: 1, previousTxHashes: [first], cancelTxHash: null });
      await wait();
      const cancel = await run();
      expect((await getFillAttempt(pool, request.id))!.cancelTxHash).toBe(cancel);
      await rpc("evm_mine", []);
      expect(await run()).toBe("failed: TRANSACTION_NOT_INCLUDED");
      expect((await destination.publicClient.getTransactionReceipt({ hash: cancel as Hex })).status).toBe("success");
      for (const hash of [first, bumped]) {
        await expect(destination.publicClient.getTransactionReceipt({ hash: hash as Hex })).rejects.toThrow();
      }
    } finally {
      await rpc("evm_setAutomine", [true]);
    }
    expect(await destination.publicClient.getBalance({ address: recipient })).toBe(0n);
    const refund = await pool.query("SELECT id, reason FROM crossfill.refunds WHERE request_id = $1", [request.id]);
    expect(refund.rows).toMatchObject([{ reason: "TRANSACTION_NOT_INCLUDED" }]);
    // the next fill is not held up by the spent nonce
    const next = await pendingRequest(zeroAddress, 9_999n);
    const hash = (await processFill({ data: { requestId: next.request.id } })) as Hex;
    expect((await next.destination.publicClient.waitForTransactionReceipt({ hash })).status).toBe("success");
  });

  it("spends the nonce of a fill the node keeps refusing and refunds (TRANSACTION_SUBMISSION_FAILED)", async () => {
    const { request, recipient, destination } = await pendingRequest(zeroAddress, 7_777n);
    // A fill the node will never take (its gas is above the block gas limit), signed with the next nonce as the worker would.
    await storeSignedFill(request, recipient, destination, 7_777n, { gas: 10n ** 9n });
    const stubborn = createFillProcessor({
      ...deps,
      stuckFill: { bumpAfterMs: 60_000, maxBumps: 3, maxBroadcastFailures: 2 },
    });
    const run = () => stubborn({ data: { requestId: request.id } });
    await expect(run()).rejects.toThrow();
    const cancel = await run();
    expect((await getFillAttempt(pool, request.id))!).toMatchObject({ broadcastFailures: 2, cancelTxHash: cancel });
    expect((await destination.publicClient.waitForTransactionReceipt({ hash: cancel as Hex })).status).toBe("success");
    expect(await run()).toBe("failed: TRANSACTION_SUBMISSION_FAILED");
    expect(await destination.publicClient.getBalance({ address: recipient })).toBe(0n);
    const refund = await pool.query("SELECT reason FROM crossfill.refunds WHERE request_id = $1", [request.id]);
    expect(refund.rows).toEqual([{ reason: "TRANSACTION_SUBMISSION_FAILED" }]);
    const next = await pendingRequest(zeroAddress, 1_234n);
    const hash = (await processFill({ data: { requestId: next.request.id } })) as Hex;
    expect((await next.destination.publicClient.waitForTransactionReceipt({ hash })).status).toBe("success");
  });

  it("keeps the call a refused fill would have made, with no hash, when its simulation reverts", async () => {
    const { request, recipient, destination } = await pendingRequest(zeroAddress, 3_333n);
    const callTarget = devnet.chains[1].callTarget;
    const reverting = {
      to: callTarget,
      value: "0",
      data: encodeFunctionData({ abi: callTargetAbi, functionName: "alwaysReverts" }),
    };
    await pool.query("UPDATE crossfill.requests SET calls = $2 WHERE id = $1", [
      request.id,
      JSON.stringify([reverting]),
    ]);
    expect(await processFill({ data: { requestId: request.id } })).toBe("failed: EXECUTION_REVERTED");
    const stored = await getRequest(pool, request.id);
    expect(stored?.failedTransaction).toEqual({
      txHash: null,
      blockNumber: null,
      timestamp: null,
      fee: null,
      call: {
        from: devnet.solver.address,
        to: destination.chain.receiver,
        data: expect.stringMatching(/^0x[0-9a-f]{8}/),
        value: "3333",
      },
    });
    const [, , , , calls] = decodeFunctionData({
      abi: receiverAbi,
      data: stored!.failedTransaction!.call.data as Hex,
    }).args;
    expect(calls).toEqual([{ to: callTarget, value: 0n, data: reverting.data }]);
    expect(await destination.publicClient.getBalance({ address: recipient })).toBe(0n);
  });

  it("keeps the hash, block, block time, fee and call of a fill mined and reverted, and refunds", async () => {
    const { request, recipient, destination } = await pendingRequest(zeroAddress, 6_666n);
    // Signed as the worker would, but paying no value for a native fill: the Receiver reverts it once mined.
    const data = encodeFunctionData({
      abi: receiverAbi,
      functionName: "fill",
      args: [request.id as Hex, zeroAddress, 6_666n, recipient, []],
    });
    const signed = await storeSignedFill(request, recipient, destination, 6_666n, { data, gas: 300_000n });
    expect(await processFill({ data: { requestId: request.id } })).toBe(signed.txHash);
    const receipt = await destination.publicClient.waitForTransactionReceipt({ hash: signed.txHash as Hex });
    expect(receipt.status).toBe("reverted");
    // Its revert data, read by replaying it on its block: the Receiver's WrongNativeAmount(0, 6666).
    expect(await processFill({ data: { requestId: request.id } })).toBe("failed: INSUFFICIENT_NATIVE_TOKENS_SUPPLIED");
    const block = await destination.publicClient.getBlock({ blockNumber: receipt.blockNumber });
    expect((await getRequest(pool, request.id))?.failedTransaction).toEqual({
      txHash: signed.txHash,
      blockNumber: receipt.blockNumber,
      timestamp: block.timestamp,
      fee: receipt.gasUsed * receipt.effectiveGasPrice,
      call: { from: devnet.solver.address, to: destination.chain.receiver, data, value: "0" },
    });
    const refund = await pool.query("SELECT reason FROM crossfill.refunds WHERE request_id = $1", [request.id]);
    expect(refund.rows).toEqual([{ reason: "INSUFFICIENT_NATIVE_TOKENS_SUPPLIED" }]);
  });

  it("fails a request the Receiver has filled by a fill sent outside Crossfill (ORDER_ALREADY_FILLED), refunding nothing", async () => {
    const { request, destination } = await pendingRequest(zeroAddress, 2_468n);
    // Someone holding the solver's key pays the request directly (1 wei, to someone else): the order is spent.
    const outside = walletFor(destination, devnet.solver);
    const hash = await outside.writeContract({
      address: destination.chain.receiver as Address,
      abi: receiverAbi,
      functionName: "fill",
      args: [request.id as Hex, zeroAddress, 1n, devnet.accounts[1].address, []],
      value: 1n,
    });
    expect((await destination.publicClient.waitForTransactionReceipt({ hash })).status).toBe("success");
    expect(await processFill({ data: { requestId: request.id } })).toBe("failed: ORDER_ALREADY_FILLED");
    const stored = await getRequest(pool, request.id);
    expect(stored).toMatchObject({ status: "failure", failReason: "ORDER_ALREADY_FILLED" });
    expect(await getFillAttempt(pool, request.id)).toBeUndefined();
    const refund = await pool.query("SELECT id FROM crossfill.refunds WHERE request_id = $1", [request.id]);
    expect(refund.rows).toEqual([]);
  });

  it("skips requests that are not waiting for a fill", async () => {
    const request = await insertTestRequest(pool);
    expect(await processFill({ data: { requestId: request.id } })).toBe("skipped: waiting");
    expect(await processFill({ data: { requestId: `0x${"00".repeat(32)}` } })).toBe("skipped: unknown");
  });
});
