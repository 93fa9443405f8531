import { randomBytes } from "node:crypto";
import type { Address, Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEvmChainClient } from "../src/chains/evm/evmChainClient.js";
import { anvilReorg } from "./support/anvilReorg.js";
import { broadcastPsbt } from "./support/broadcastPsbt.js";
import { pollStatus } from "./support/pollStatus.js";
import { postBitcoinQuote, postBridgeQuote } from "./support/postQuote.js";
import { sendSteps } from "./support/sendSteps.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An origin family's deposit for a request, left waiting for its confirmations, and the reorg that drops it. */
type OriginFamily = {
  name: string;
  /** Quotes a bridge to `recipient` on the EVM destination, pays it, and waits until it is pending and recorded. */
  depositWaiting(stack: TestStack, recipient: Address): Promise<{ requestId: string; blockHash: string }>;
  /** Reorgs the deposit's block out, the deposit not mined again. */
  reorgOut(stack: TestStack, deposit: { requestId: string; blockHash: string }): Promise<void>;
};

const recordedDeposits = async (stack: TestStack, requestId: string) =>
  (
    await stack.pool.query("SELECT block_number, block_hash FROM crossfill.request_deposits WHERE request_id = $1", [
      requestId,
    ])
  ).rows as { block_number: string; block_hash: string }[];

const evmOrigin: OriginFamily = {
  name: "EVM",
  async depositWaiting(stack, recipient) {
    const [origin, destination] = stack.devnet.chains;
    const quote = await postBridgeQuote(
      stack.api.url,
      stack.devnet.accounts[0],
      { origin, destination },
      10_000_000_000_000_000n,
      { recipient },
    );
    await sendSteps(quote.body, stack.devnet.accounts[0], origin);
    await pollStatus(stack.api.url, quote.body.requestId, { until: ["pending"] });
    const [deposit] = await recordedDeposits(stack, quote.body.requestId);
    return { requestId: quote.body.requestId, blockHash: deposit!.block_hash };
  },
  async reorgOut(stack, { requestId }) {
    // Drop the deposit's block (and any after it): anvil does not mine the dropped transactions again.
    const [origin] = stack.devnet.chains;
    const head = await createEvmChainClient(origin).publicClient.getBlockNumber({ cacheTime: 0 });
    const [deposit] = await recordedDeposits(stack, requestId);
    await anvilReorg(origin.rpcUrl, Number(head - BigInt(deposit!.block_number)) + 1);
  },
};

const bitcoinOrigin: OriginFamily = {
  name: "Bitcoin",
  async depositWaiting(stack, recipient) {
    const btc = stack.bitcoin!.devnet;
    const user = btc.accounts[3]!;
    // $15,000: two blocks, so one block in, the deposit is recorded and waits.
    const response = await postBitcoinQuote(stack, user.address, 25_000_000n, { recipient });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const { requestId } = response.body.steps[0];
    await broadcastPsbt(btc, response.body.steps[0].items[0].data.psbt, user.wif);
    await pollStatus(stack.api.url, requestId, { until: ["pending"], timeoutMs: 15_000 });
    const [blockHash] = btc.mine(1);
    const recorded = async () => (await recordedDeposits(stack, requestId)).map((row) => row.block_hash);
    for (let tries = 0; (await recorded())[0] !== blockHash && tries < 100; tries++) await sleep(100);
    expect(await recorded()).toEqual([blockHash]);
    return { requestId, blockHash: blockHash! };
  },
  async reorgOut(stack, { requestId }) {
    const { rows } = await stack.pool.query("SELECT tx_hash FROM crossfill.request_deposits WHERE request_id = $1", [
      requestId,
    ]);
    stack.bitcoin!.devnet.reorg(1, { dropTxids: [rows[0].tx_hash] });
  },
};

/**
 * A deposit reorged out before it is final fails its request and is never filled nor refunded, from each devnet
 * origin family (EVM with four confirmations; Bitcoin, whose $15,000 deposit waits for two blocks).
 */
describe("a deposit reorged out before it is final, end to end", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ bitcoin: true, confirmations: [{ minUsd: "0", blocks: 4 }] });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  describe.each([evmOrigin, bitcoinOrigin])("from $name", (family) => {
    it("fails the request (DEPOSIT_REORGED) and never fills or refunds it", async () => {
      const destination = stack.devnet.chains[1]!;
      const recipient = `0x${randomBytes(20).toString("hex")}` as Address;
      const deposit = await family.depositWaiting(stack, recipient);
      const { requestId } = deposit;
      await family.reorgOut(stack, deposit);

      const { statuses, last } = await pollStatus(stack.api.url, requestId, { timeoutMs: 30_000 });
      expect(statuses).toEqual(["pending", "failure"]);
      expect(last).toMatchObject({ status: "failure", failReason: "DEPOSIT_REORGED", txHashes: [] });
      expect((last.inTxHashes as Hex[]).length).toBe(1);
      const { rows } = await stack.pool.query("SELECT reorg FROM crossfill.request_deposits WHERE request_id = $1", [
        requestId,
      ]);
      expect(rows[0].reorg).toMatchObject({
        failReason: "DEPOSIT_REORGED",
        action: "fill",
        reason: "deposit transaction not found",
        blockHash: deposit.blockHash,
      });
      // Long enough for any fill that was coming.
      await sleep(3_000);
      expect(await createEvmChainClient(destination).publicClient.getBalance({ address: recipient })).toBe(0n);
      const attempts = await stack.pool.query("SELECT 1 FROM crossfill.fill_attempts WHERE request_id = $1", [
        requestId,
      ]);
      expect(attempts.rowCount).toBe(0);
      const refunds = await stack.pool.query("SELECT 1 FROM crossfill.refunds WHERE request_id = $1", [requestId]);
      expect(refunds.rowCount).toBe(0);
      expect((await pollStatus(stack.api.url, requestId)).last.status).toBe("failure");
    }, 60_000);
  });
});
