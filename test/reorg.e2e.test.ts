import { randomBytes } from "node:crypto";
import { type Address, type Hex, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { receiverAbi } from "../contracts/abis.js";
import { findReceiptFillsNotIndexed } from "../schema/receiptFills.js";
import { createEvmChainClient } from "../src/chains/evm/evmChainClient.js";
import { devnetWalletClient } from "../devnet/devnetWalletClient.js";
import { anvilReorg } from "./support/anvilReorg.js";
import { pollStatus } from "./support/pollStatus.js";
import { postGraphql } from "./support/postGraphql.js";
import { postBridgeQuote } from "./support/postQuote.js";
import { sendSteps } from "./support/sendSteps.js";
import { refundChecks } from "./support/refundChecks.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";

const CONFIRMATIONS = 4;

/**
 * With a confirmation policy, a deposit is filled only once deep enough (never if it is reorged out first: that is
 * test/depositReorged.e2e.test.ts, over every devnet origin family).
 */
describe("confirmations and reorgs, end to end", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ confirmations: [{ minUsd: "0", blocks: CONFIRMATIONS }] });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const quoteBridge = async (recipient: Address) => {
    const [origin, destination] = stack.devnet.chains;
    return postBridgeQuote(stack.api.url, stack.devnet.accounts[0], { origin, destination }, 10_000_000_000_000_000n, {
      recipient,
    });
  };

  it("waits for the deposit's confirmations before filling", async () => {
    const [origin] = stack.devnet.chains;
    const originClient = createEvmChainClient(origin).publicClient;
    const quote = await quoteBridge(`0x${randomBytes(20).toString("hex")}`);
    const { deposit } = await sendSteps(quote.body, stack.devnet.accounts[0], origin);
    const depositBlock = (await originClient.getTransactionReceipt({ hash: deposit })).blockNumber;
    const { statuses } = await pollStatus(stack.api.url, quote.body.requestId, { timeoutMs: 30_000 });
    expect(statuses.at(-1)).toBe("success");
    const { rows } = await stack.pool.query(
      "SELECT to_status, created_at FROM crossfill.status_events WHERE request_id = $1 ORDER BY id",
      [quote.body.requestId],
    );
    const at = (status: string) => rows.find((row) => row.to_status === status).created_at.getTime();
    // Pending comes with the deposit's block; the fill waits for CONFIRMATIONS - 1 more 1 s blocks.
    expect(at("submitted") - at("pending")).toBeGreaterThanOrEqual((CONFIRMATIONS - 1) * 1000 - 500);
    expect(depositBlock).toBeGreaterThan(0n);
  });

  it("follows a deposit a reorg mines again in another block: filled once, from its new block", async () => {
    const [origin, destination] = stack.devnet.chains;
    const originClient = createEvmChainClient(origin).publicClient;
    const recipient = `0x${randomBytes(20).toString("hex")}` as Address;
    const quote = await quoteBridge(recipient);
    const requestId = quote.body.requestId;
    const { deposit } = await sendSteps(quote.body, stack.devnet.accounts[0], origin);
    await pollStatus(stack.api.url, requestId, { until: ["pending"] });
    const first = await originClient.getTransactionReceipt({ hash: deposit });
    const raw = await originClient.request({ method: "eth_getRawTransactionByHash", params: [deposit] });
    const head = await originClient.getBlockNumber({ cacheTime: 0 });
    // The block before the deposit's and those after it replaced; the deposit mined again in the last new block.
    const depth = Number(head - first.blockNumber) + 2;
    await anvilReorg(origin.rpcUrl, depth, [[raw as string, depth - 1]]);
    const again = await originClient.getTransactionReceipt({ hash: deposit });
    expect(again.blockHash).not.toBe(first.blockHash);

    const { last } = await pollStatus(stack.api.url, requestId, { timeoutMs: 30_000 });
    expect(last.status).toBe("success");
    const { rows } = await stack.pool.query(
      "SELECT block_hash, block_number::int, reorg FROM crossfill.request_deposits WHERE request_id = $1",
      [requestId],
    );
    expect(rows).toEqual([{ block_hash: again.blockHash, block_number: Number(again.blockNumber), reorg: null }]);
    const children = await stack.pool.query("SELECT 1 FROM crossfill.requests WHERE parent_request_id = $1", [
      requestId,
    ]);
    expect(children.rowCount).toBe(0);
    const refunds = await stack.pool.query("SELECT 1 FROM crossfill.refunds WHERE request_id = $1", [requestId]);
    expect(refunds.rowCount).toBe(0);
    expect(await createEvmChainClient(destination).publicClient.getBalance({ address: recipient })).toBe(
      BigInt(quote.body.details.currencyOut.amount),
    );
  });

  it("puts a fill the request succeeded on back on the chain when its block is reorged out: the same transaction, one payout", async () => {
    const [origin, destination] = stack.devnet.chains;
    const destinationClient = createEvmChainClient(destination).publicClient;
    const recipient = `0x${randomBytes(20).toString("hex")}` as Address;
    const quote = await quoteBridge(recipient);
    const requestId = quote.body.requestId;
    await sendSteps(quote.body, stack.devnet.accounts[0], origin);
    const { last } = await pollStatus(stack.api.url, requestId, { timeoutMs: 30_000 });
    expect(last.status).toBe("success");
    const fillTx = (last.txHashes as Hex[])[0];
    const paid = await destinationClient.getBalance({ address: recipient });
    expect(paid).toBeGreaterThan(0n);
    const fillOf = async () =>
      (
        await stack.pool.query(
          "SELECT tx_hash, block_number::text, block_hash, provisional, disagreement FROM crossfill.request_fills WHERE request_id = $1",
          [requestId],
        )
      ).rows;
    // The indexer confirms the receipt's fill, and the reorg check finds it in the index (by Ponder's key).
    await vi.waitFor(async () => expect((await fillOf())[0].provisional).toBe(false), { timeout: 10_000 });
    const [before] = await fillOf();
    expect(before.tx_hash).toBe(fillTx);
    const window = { olderThanMs: 0, withinMs: 600_000 };
    const unindexed = await findReceiptFillsNotIndexed(stack.pool, stack.onchainSchema!, window);
    expect(unindexed.map((fill) => fill.txHash)).not.toContain(fillTx);

    // Drop the fill's block (and any after it) on the destination chain: anvil does not mine its transactions again.
    const head = await destinationClient.getBlockNumber({ cacheTime: 0 });
    await anvilReorg(destination.rpcUrl, Number(head - BigInt(before.block_number)) + 1);
    expect(await destinationClient.getBalance({ address: recipient })).toBe(0n);

    // Found gone (the indexer drops its row, the node has no receipt), the same signed transaction is sent again,
    // mined in a new block and confirmed there by the indexer; what happened stays on the fill.
    await vi.waitFor(
      async () =>
        expect(await fillOf()).toEqual([
          {
            tx_hash: fillTx,
            block_number: expect.not.stringMatching(`^${before.block_number}$`),
            block_hash: expect.not.stringMatching(`^${before.block_hash}$`),
            provisional: false,
            disagreement: expect.objectContaining({
              reason: "fill reorged out",
              action: "re-sent",
              blockHash: before.block_hash,
            }),
          },
        ]),
      { timeout: 30_000, interval: 200 },
    );
    const receipt = await destinationClient.getTransactionReceipt({ hash: fillTx });
    expect(receipt.status).toBe("success");
    // one payout, one Fill event for the request, one signed fill, and the request never left success
    expect(await destinationClient.getBalance({ address: recipient })).toBe(paid);
    const fills = await destinationClient.getContractEvents({
      address: destination.receiver as Address,
      abi: receiverAbi,
      eventName: "Fill",
      args: { requestId: requestId as Hex },
      fromBlock: 0n,
    });
    expect(fills.map((log) => log.transactionHash)).toEqual([fillTx]);
    const attempts = await stack.pool.query("SELECT tx_hash FROM crossfill.fill_attempts WHERE request_id = $1", [
      requestId,
    ]);
    expect(attempts.rows).toEqual([{ tx_hash: fillTx }]);
    expect(await refundChecks(stack).events(requestId)).toEqual(["waiting", "pending", "submitted", "success"]);
    const record = await postGraphql(
      stack.api.url,
      `query ($id: String!) { request(id: $id) { status fills { txHash provisional disagreement } } }`,
      { id: requestId },
    );
    expect(record.data.request).toMatchObject({
      status: "success",
      fills: [{ txHash: fillTx, provisional: false, disagreement: { reason: "fill reorged out" } }],
    });
  });

  it("refunds an underpaid deposit only once it is final, and pays nothing for one reorged out first", async () => {
    const [origin] = stack.devnet.chains;
    const originClient = createEvmChainClient(origin).publicClient;
    const user = stack.devnet.accounts[1];
    const wallet = devnetWalletClient({ rpcUrl: origin.rpcUrl, chainId: origin.id, privateKey: user.privateKey });
    const underpay = async () => {
      const quote = await quoteBridge(`0x${randomBytes(20).toString("hex")}`);
      const item = quote.body.steps[0].items[0].data;
      const hash = await wallet.sendTransaction({ to: item.to, data: item.data, value: BigInt(item.value) / 2n });
      const receipt = await originClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
      return { requestId: quote.body.requestId as string, receipt };
    };
    const refundRows = async (requestId: string) =>
      (await stack.pool.query("SELECT status, tx_hash FROM crossfill.refunds WHERE request_id = $1", [requestId])).rows;

    const paid = await underpay();
    const { last } = await pollStatus(stack.api.url, paid.requestId, { until: ["refund"], timeoutMs: 30_000 });
    expect(last.failReason).toBe("DEPOSITED_AMOUNT_TOO_LOW_TO_FILL");
    const [refund] = await refundRows(paid.requestId);
    const refundBlock = (await originClient.getTransactionReceipt({ hash: refund.tx_hash })).blockNumber;
    // Signed once the deposit had CONFIRMATIONS blocks, so mined after them.
    expect(refundBlock).toBeGreaterThanOrEqual(paid.receipt.blockNumber + BigInt(CONFIRMATIONS));

    const gone = await underpay();
    await pollStatus(stack.api.url, gone.requestId, { until: ["failure"] });
    expect(await refundRows(gone.requestId)).toEqual([{ status: "queued", tx_hash: null }]);
    const head = await originClient.getBlockNumber({ cacheTime: 0 });
    await anvilReorg(origin.rpcUrl, Number(head - gone.receipt.blockNumber) + 1);
    await vi.waitFor(async () => expect(await refundRows(gone.requestId)).toEqual([]), {
      timeout: (CONFIRMATIONS + 10) * 1000,
      interval: 200,
    });
    const { rows } = await stack.pool.query("SELECT reorg FROM crossfill.request_deposits WHERE request_id = $1", [
      gone.requestId,
    ]);
    expect(rows[0].reorg).toMatchObject({ action: "refund", reason: "deposit transaction not found" });
    expect((await pollStatus(stack.api.url, gone.requestId)).last).toMatchObject({
      status: "failure",
      failReason: "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL",
    });
  });

  it("refunds an order whose fill could not be sent before its deadline and fill window passed", async () => {
    const [origin, destination] = stack.devnet.chains;
    const checks = refundChecks(stack);
    const originClient = createEvmChainClient(origin);
    const recipient = `0x${randomBytes(20).toString("hex")}` as Address;
    const user = stack.devnet.accounts[0];
    const quote = await quoteBridge(recipient);
    const before = await checks.balancesBefore(originClient, user.address, zeroAddress);
    const { deposit } = await sendSteps(quote.body, user, origin);
    await pollStatus(stack.api.url, quote.body.requestId, { until: ["pending"] });
    // Paid in time, but the deadline and the fill window pass while the deposit gathers its confirmations.
    await stack.pool.query("UPDATE crossfill.requests SET deadline = now() - interval '1 hour' WHERE id = $1", [
      quote.body.requestId,
    ]);
    const { last } = await pollStatus(stack.api.url, quote.body.requestId, {
      until: ["refund", "success"],
      timeoutMs: 30_000,
    });
    // Which check sees the passed window first is timing: a run before the last confirmation refunds the deposit as
    // DEPOSIT_CONFIRMATION_TIMEOUT, one after it as PROTOCOL_DEADLINE_EXPIRED (pinned alone by jobs/createFillProcessor.test.ts
    // and bitcoinDeposit.e2e).
    expect(["DEPOSIT_CONFIRMATION_TIMEOUT", "PROTOCOL_DEADLINE_EXPIRED"]).toContain(last.failReason);
    expect(await checks.events(quote.body.requestId)).toEqual(["waiting", "pending", "failure", "refund"]);
    await checks.expectRefunded({
      requestId: quote.body.requestId,
      chainClient: originClient,
      currency: zeroAddress,
      user: user.address,
      depositTx: deposit,
      deposited: 10_000_000_000_000_000n,
      ...before,
    });
    expect(await createEvmChainClient(destination).publicClient.getBalance({ address: recipient })).toBe(0n);
  });
});
