import { randomBytes } from "node:crypto";
import pg from "pg";
import pino from "pino";
import { type Address, type Hex, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { depositoryAbi } from "../contracts/abis.js";
import { type DevnetChains, startDevnetChains } from "../devnet/startDevnetChains.js";
import { recordRequestDeposit } from "../schema/requestDeposits.js";
import { migrate } from "../schema/migrate.js";
import { getRefund } from "../schema/refunds.js";
import { listOpenOperatorAlerts } from "../schema/operatorAlerts.js";
import { getRequest } from "../schema/requests.js";
import { withTransaction } from "../schema/withTransaction.js";
import { createChainRegistry } from "../src/chains/chainRegistry.js";
import { type EvmChainClient, createEvmChainClient } from "../src/chains/evm/evmChainClient.js";
import { createStaticPriceSource } from "../src/pricing/priceSource.js";
import { familyAdapters } from "../apps/families/familyAdapters.js";
import { anvilReorg } from "../test/support/anvilReorg.js";
import { depositNative } from "../test/support/depositNative.js";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { createTestDatabase } from "../test/support/testDatabase.js";
import { failRequest } from "./failRequest.js";
import { createRefundProcessor } from "./createRefundProcessor.js";

const CONFIRMATIONS = 3;

/** A refund waits for its deposit as a fill does: final, followed when moved, dropped when reorged out. */
describe("refund processor and the refunded deposit", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: pg.Pool;
  let devnet: DevnetChains;
  let origin: EvmChainClient;
  let processRefund: ReturnType<typeof createRefundProcessor>;
  const delayed: Array<{ refundId: string; delayMs: number; key: string }> = [];

  beforeAll(async () => {
    [db, devnet] = await Promise.all([
      createTestDatabase(),
      startDevnetChains({
        chainIds: [31338, 31339],
        blockTime: 0,
        confirmations: [{ minUsd: "0", blocks: CONFIRMATIONS }],
      }),
    ]);
    pool = new pg.Pool({ connectionString: db.url, max: 4 });
    await migrate(pool);
    origin = createEvmChainClient(devnet.chains[0]);
    processRefund = createRefundProcessor({
      pool,
      adapters: familyAdapters(devnet.chains, { evm: { solver: devnet.solver } }),
      registry: createChainRegistry(devnet.chains),
      prices: createStaticPriceSource({ ETH: "3000", USDC: "1", WETH: "3000" }),
      enqueueRefund: async (refundId, options) => void delayed.push({ refundId, ...options }),
      logger: pino({ level: "silent" }),
    });
  });
  afterAll(async () => {
    await pool?.end();
    await devnet?.stop();
    await db?.drop();
  });

  const rpc = async (method: string, params: unknown[]): Promise<unknown> => {
    const response = await fetch(devnet.chains[0].rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    return ((await response.json()) as { result: unknown }).result;
  };
  const mine = (blocks: number) => rpc("anvil_mine", [`0x${blocks.toString(16)}`]);

  /** An underpaid order: its deposit applied on chain and in Postgres, the request failed and its refund queued. */
  async function failedDeposit(amount = 10n ** 16n) {
    const chain = devnet.chains[0];
    const refundTo = `0x${randomBytes(20).toString("hex")}` as Address;
    const request = await insertTestRequest(pool, { amountIn: amount * 2n, refundTo });
    const receipt = await depositNative(chain, devnet.accounts[0], request.orderId, amount);
    const txHash = receipt.transactionHash;
    const [log] = parseEventLogs({ abi: depositoryAbi, logs: receipt.logs });
    const block = await origin.publicClient.getBlock({ blockHash: receipt.blockHash });
    const deposit = {
      chainId: chain.id,
      txHash,
      position: log!.logIndex,
      orderId: request.orderId,
      depositor: devnet.accounts[0].address.toLowerCase(),
      currency: "0x0000000000000000000000000000000000000000",
      amount,
      blockNumber: receipt.blockNumber,
      blockHash: receipt.blockHash,
      timestamp: block.timestamp,
      txFrom: devnet.accounts[0].address.toLowerCase(),
      txFee: null,
    };
    const refundId = await withTransaction(pool, async (client) => {
      await recordRequestDeposit(client, { ...deposit, requestId: request.id });
      return failRequest(client, {
        request,
        from: ["waiting"],
        failReason: "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL",
        deposit,
      });
    });
    return { request, refundId: refundId!, refundTo, receipt, deposit };
  }

  const appliedRows = async (requestId: string) =>
    (
      await pool.query(
        "SELECT block_hash, block_number::int, log_index::int, reorg FROM crossfill.request_deposits WHERE request_id = $1",
        [requestId],
      )
    ).rows;

  it("waits for the deposit's confirmations, then pays it back", async () => {
    const { refundId, refundTo, receipt } = await failedDeposit();
    const job = { data: { refundId } };
    expect(await processRefund(job)).toBe(`confirming: ${CONFIRMATIONS - 1} blocks to go`);
    expect(delayed.at(-1)).toMatchObject({
      refundId,
      key: `${receipt.blockNumber + BigInt(CONFIRMATIONS - 1)}`,
    });
    expect(delayed.at(-1)!.delayMs).toBeGreaterThanOrEqual(200);
    expect((await getRefund(pool, refundId))!.status).toBe("queued");

    await mine(CONFIRMATIONS - 1);
    const before = await origin.publicClient.getBalance({ address: refundTo });
    const txHash = await processRefund(job);
    const refund = (await getRefund(pool, refundId))!;
    expect(refund).toMatchObject({ status: "sent", txHash });
    await origin.publicClient.waitForTransactionReceipt({ hash: txHash as Hex });
    expect(await origin.publicClient.getBalance({ address: refundTo })).toBe(before + refund.amount!);
  });

  it("pays nothing for a deposit reorged out before its refund was sent, and says so on the deposit", async () => {
    const { request, refundId, refundTo } = await failedDeposit();
    await anvilReorg(devnet.chains[0].rpcUrl, 1);
    await mine(CONFIRMATIONS);
    const before = await origin.publicClient.getBalance({ address: refundTo });
    const depositoryBefore = await origin.publicClient.getBalance({ address: devnet.chains[0].depository as Address });

    expect(await processRefund({ data: { refundId } })).toBe("dropped: deposit transaction not found");
    expect(await getRefund(pool, refundId)).toBeUndefined();
    const [applied] = await appliedRows(request.id);
    expect(applied.reorg).toMatchObject({
      source: "refund-check",
      action: "refund",
      refundId,
      reason: "deposit transaction not found",
      failReason: "DEPOSIT_REORGED",
    });
    await mine(1);
    expect(await origin.publicClient.getBalance({ address: refundTo })).toBe(before);
    expect(await origin.publicClient.getBalance({ address: devnet.chains[0].depository as Address })).toBe(
      depositoryBefore,
    );
    // Run again (a requeued job): nothing left to pay.
    expect(await processRefund({ data: { refundId } })).toBe("skipped: unknown");
  });

  it("drops the refund of a deposit already found reorged out", async () => {
    const { request, refundId } = await failedDeposit();
    await pool.query(
      `UPDATE crossfill.request_deposits SET reorg = '{"reason":"seen by the fill"}' WHERE request_id = $1`,
      [request.id],
    );
    expect(await processRefund({ data: { refundId } })).toBe("dropped: deposit reorged out");
    expect(await getRefund(pool, refundId)).toBeUndefined();
    expect((await appliedRows(request.id))[0].reorg).toEqual({ reason: "seen by the fill" });
  });

  it("follows a deposit a reorg mines again in another block, and pays it back once final there", async () => {
    await mine(1); // an empty block under the deposit's, so the reorg drops no transaction the deposit's nonce follows
    const { request, refundId, receipt } = await failedDeposit();
    const raw = await rpc("eth_getRawTransactionByHash", [receipt.transactionHash]);
    // The deposit's block and the one before it replaced: the deposit mined again one block lower.
    await anvilReorg(devnet.chains[0].rpcUrl, 2, [[raw as string, 0]]);
    const again = await origin.publicClient.getTransactionReceipt({ hash: receipt.transactionHash });
    expect(again.blockNumber).toBe(receipt.blockNumber - 1n);
    await mine(CONFIRMATIONS);

    expect(await processRefund({ data: { refundId } })).toBe(`moved: deposit now in block ${again.blockNumber}`);
    expect(delayed.at(-1)).toMatchObject({ refundId, key: `moved-${again.blockHash}` });
    expect(await appliedRows(request.id)).toEqual([
      { block_hash: again.blockHash, block_number: Number(again.blockNumber), log_index: 0, reorg: null },
    ]);
    const txHash = await processRefund({ data: { refundId } });
    expect(await getRefund(pool, refundId)).toMatchObject({ status: "sent", txHash, depositPosition: 0 });
  });

  it("leaves a refund whose deposit no request applied to an operator, unpaid", async () => {
    const { request, refundId } = await failedDeposit();
    await pool.query("DELETE FROM crossfill.request_deposits WHERE request_id = $1", [request.id]);
    expect(await processRefund({ data: { refundId } })).toBe("stuck: MANUAL_REFUND_REQUIRED");
    expect((await getRefund(pool, refundId))!.status).toBe("manual");
    expect((await getRequest(pool, request.id))!.refundFailReason).toBe("MANUAL_REFUND_REQUIRED");
  });

  it("sends a refund whose withdrawal reverted once mined to an operator (MANUAL_REFUND_REQUIRED), alerts, and never sends it again", async () => {
    const { request, refundId, refundTo } = await failedDeposit();
    await mine(CONFIRMATIONS);
    await rpc("evm_setAutomine", [false]);
    let txHash: string;
    try {
      txHash = await processRefund({ data: { refundId } });
      expect(await getRefund(pool, refundId)).toMatchObject({ status: "sent", txHash });
      // Before it is mined, the recipient becomes a contract that refuses ether: the simulated withdrawal now reverts.
      await rpc("anvil_setCode", [refundTo, "0x60006000fd"]);
      await mine(1);
    } finally {
      await rpc("evm_setAutomine", [true]);
    }
    expect((await origin.publicClient.getTransactionReceipt({ hash: txHash as Hex })).status).toBe("reverted");
    expect(await processRefund({ data: { refundId } })).toBe("stuck: MANUAL_REFUND_REQUIRED");
    const refund = await pool.query(
      "SELECT status, refund_fail_reason, tx_hash, note FROM crossfill.refunds WHERE id = $1",
      [refundId],
    );
    expect(refund.rows[0]).toMatchObject({
      status: "manual",
      refund_fail_reason: "MANUAL_REFUND_REQUIRED",
      tx_hash: txHash,
    });
    expect(refund.rows[0].note).toContain(txHash);
    expect((await getRequest(pool, request.id))!.refundFailReason).toBe("MANUAL_REFUND_REQUIRED");
    const alerts = (await listOpenOperatorAlerts(pool)).filter((alert) => alert.subject === refundId);
    expect(alerts).toMatchObject([{ kind: "REFUND_REVERTED", details: { txHash, requestId: request.id } }]);
    // Run again (the reconcile tick's requeue): nothing is broadcast any more.
    const nonce = await origin.publicClient.getTransactionCount({ address: devnet.solver.address });
    expect(await processRefund({ data: { refundId } })).toBe("skipped: manual");
    expect(await origin.publicClient.getTransactionCount({ address: devnet.solver.address })).toBe(nonce);
  });
});
