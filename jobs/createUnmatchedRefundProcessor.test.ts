import { fakeChainAdapters } from "../test/support/fakeChainAdapters.js";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { type DepositFact, NO_ORDER, POLLER_SOURCE, insertDepositFacts } from "../schema/chainFacts.js";
import { recordRequestDeposit } from "../schema/requestDeposits.js";
import { recordPollerCursors } from "../schema/pollerCursors.js";
import { getUnmatchedRefund, queueUnmatchedRefunds } from "../schema/unmatchedRefunds.js";
import { withTransaction } from "../schema/withTransaction.js";
import type { RefundOrder } from "../src/chains/adapter.js";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { appFeeTestRegistry } from "../test/support/appFeeTestChains.js";
import { createStaticPriceSource } from "../src/pricing/priceSource.js";
import { createUnmatchedRefundProcessor } from "./createUnmatchedRefundProcessor.js";

const CHAIN = 8253038;

/** The adapter calls a refund makes, recorded: a 187-satoshi fee, a 294-satoshi dust limit. */
function fakeChain(options: { refusal?: string; pooled?: { final: () => boolean } } = {}) {
  const calls: string[] = [];
  let mined = false;
  const chain = {
    nativeCurrency: "btc",
    // Bitcoin's refund spends the deposit itself: it goes without waiting for finality. A refund paid from pooled
    // funds (Solana's) waits for the deposit's check.
    refundSpendsDeposit: !options.pooled,
    chain: appFeeTestRegistry.chain(CHAIN),
    requiredConfirmations: () => 1,
    checkDeposit: async () =>
      options.pooled?.final() === false ? { state: "confirming", missingBlocks: 1 } : { state: "final" },
    address: { parse: (value: string) => (value.startsWith("bcrt1") ? value : undefined) },
    estimateFee: async () => 187n,
    minimumPayout: () => 294n,
    prepareRefund: async (refund: RefundOrder) => {
      calls.push(`prepare ${refund.amount} to ${refund.recipient} memo ${refund.orderId || "none"}`);
      return options.refusal
        ? { refusal: options.refusal }
        : { transaction: { chainId: CHAIN, payload: `psbt of ${refund.deposit!.txHash}` } };
    },
    signTransaction: async (_db: unknown, transaction: { payload: string }) => {
      calls.push(`sign ${transaction.payload}`);
      return { nonce: null, rawTx: `raw ${transaction.payload}`, txHash: `refund of ${transaction.payload}` };
    },
    broadcast: async (tx: { rawTx: string }) => void calls.push(`broadcast ${tx.rawTx}`),
    transactionMined: async () => mined,
  };
  const adapters = fakeChainAdapters(() => chain);
  return { calls, adapters, mine: () => (mined = true) };
}

// Bitcoin's refunds pay the deposit's own currency, BTC: its fee needs no price.
const pricing = { registry: appFeeTestRegistry, prices: createStaticPriceSource({}) };

let nextTx = 0;

describe("refundUnmatchedDeposit", () => {
  const db = useMigratedDatabase();
  const logger = pino({ level: "silent" });

  /** A mined deposit to the depository naming no request, queued for its refund. */
  async function queuedDeposit(overrides: Partial<DepositFact> = {}) {
    const txHash = `deposit ${nextTx++}`;
    const fact: DepositFact = {
      chainId: CHAIN,
      txHash,
      position: 0,
      orderId: NO_ORDER,
      depositor: "bcrt1qpayer",
      currency: "btc",
      amount: 10_000n,
      blockNumber: 1n,
      blockHash: "block 1",
      timestamp: 1n,
      txFrom: "bcrt1qpayer",
      txFee: 150n,
      ...overrides,
    };
    await insertDepositFacts(db.pool, [fact], POLLER_SOURCE);
    await withTransaction(db.pool, (client) =>
      recordPollerCursors(client, CHAIN, [{ position: nextTx, key: txHash }], 100),
    );
    await queueUnmatchedRefunds(db.pool, [{ chainId: CHAIN, afterBlocks: 1 }]);
    return { fact, key: { chainId: CHAIN, txHash, position: 0 } };
  }

  it("stores the refund (the deposit less the fee, to the depositor) before sending it; re-sends it until mined", async () => {
    const { key } = await queuedDeposit();
    const { calls, adapters, mine } = fakeChain();
    const process = createUnmatchedRefundProcessor({ pool: db.pool, adapters, logger, ...pricing });
    expect(await process({ data: key })).toBe(`refund of psbt of ${key.txHash}`);
    expect(calls).toEqual([
      `prepare 9813 to bcrt1qpayer memo none`,
      `sign psbt of ${key.txHash}`,
      `broadcast raw psbt of ${key.txHash}`,
    ]);
    expect(await getUnmatchedRefund(db.pool, key)).toMatchObject({
      status: "sent",
      amount: 9_813n,
      fee: 187n,
      refundTxHash: `refund of psbt of ${key.txHash}`,
    });

    // A crash after storing, or a recheck: the same transaction again, never a second one.
    calls.length = 0;
    await process({ data: key });
    expect(calls).toEqual([`broadcast raw psbt of ${key.txHash}`]);
    // A job an earlier version queued (its outpoint's `logIndex`) is the same deposit's.
    calls.length = 0;
    const { position, ...rest } = key;
    await process({ data: { ...rest, logIndex: position } });
    expect(calls).toEqual([`broadcast raw psbt of ${key.txHash}`]);
    mine();
    expect(await process({ data: key })).toBe(`confirmed: refund of psbt of ${key.txHash}`);
    expect((await getUnmatchedRefund(db.pool, key))?.status).toBe("confirmed");
    expect(await process({ data: key })).toBe("skipped: confirmed");
  });

  it("refunds to the depositor the memo names, with the memo's order", async () => {
    const orderId = `0x${"12".repeat(32)}`;
    const { key } = await queuedDeposit({ orderId, depositor: "bcrt1qnamed" });
    const { calls, adapters } = fakeChain();
    await createUnmatchedRefundProcessor({ pool: db.pool, adapters, logger, ...pricing })({ data: key });
    expect(calls[0]).toBe(`prepare 9813 to bcrt1qnamed memo ${orderId}`);
  });

  it("records a deposit that cannot pay its fee, or a refund below dust, as unrefundable: nothing sent", async () => {
    const { calls, adapters } = fakeChain();
    const process = createUnmatchedRefundProcessor({ pool: db.pool, adapters, logger, ...pricing });
    const { key: tiny } = await queuedDeposit({ amount: 330n });
    expect(await process({ data: tiny })).toBe("stuck: AMOUNT_TOO_LOW_TO_REFUND");
    // 187 back is no less than the fee, but below the dust limit of the payer's output.
    const { key: belowDust } = await queuedDeposit({ amount: 450n });
    expect(await process({ data: belowDust })).toBe("stuck: AMOUNT_TOO_LOW_TO_REFUND");
    expect(await getUnmatchedRefund(db.pool, belowDust)).toMatchObject({
      status: "unrefundable",
      refundFailReason: "AMOUNT_TOO_LOW_TO_REFUND",
      note: expect.stringMatching(/below the dust limit 294/),
    });
    expect(calls).toEqual([]);
  });

  it("leaves a refund the chain refuses (spent already, no key) or with no payer address to an operator", async () => {
    const { key } = await queuedDeposit();
    const spent = fakeChain({ refusal: "deposit is spent already, by abc" });
    const process = createUnmatchedRefundProcessor({ pool: db.pool, adapters: spent.adapters, logger, ...pricing });
    expect(await process({ data: key })).toBe("stuck: MANUAL_REFUND_REQUIRED");
    expect(await getUnmatchedRefund(db.pool, key)).toMatchObject({
      status: "manual",
      note: expect.stringMatching(/spent already/),
    });
    expect(spent.calls.some((call) => call.startsWith("sign"))).toBe(false);

    const { key: nobody } = await queuedDeposit({ depositor: "", txFrom: "" });
    expect(await process({ data: nobody })).toBe("stuck: MANUAL_REFUND_REQUIRED");
  });

  it("gives way to a request that applied the deposit meanwhile: nothing signed, the queued row dropped", async () => {
    const { fact, key } = await queuedDeposit();
    const request = await insertTestRequest(db.pool, { originChainId: CHAIN });
    await withTransaction(db.pool, (client) => recordRequestDeposit(client, { ...fact, requestId: request.id }));
    const { calls, adapters } = fakeChain();
    expect(await createUnmatchedRefundProcessor({ pool: db.pool, adapters, logger, ...pricing })({ data: key })).toBe(
      "dropped: a request applied the deposit",
    );
    expect(calls).toEqual([]);
    expect(await getUnmatchedRefund(db.pool, key)).toBeUndefined();
  });
  it("waits for a deposit a fork could take back where the refund pays from pooled funds", async () => {
    const { key } = await queuedDeposit();
    let final = false;
    const { calls, adapters } = fakeChain({ pooled: { final: () => final } });
    const process = createUnmatchedRefundProcessor({ pool: db.pool, adapters, logger, ...pricing });
    expect(await process({ data: key })).toBe("waiting: the deposit is confirming");
    expect(calls).toEqual([]);
    expect((await getUnmatchedRefund(db.pool, key))?.status).toBe("queued");
    final = true;
    expect(await process({ data: key })).toBe(`refund of psbt of ${key.txHash}`);
    expect(calls).toHaveLength(3);
  });
});
