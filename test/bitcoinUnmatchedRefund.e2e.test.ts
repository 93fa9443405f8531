import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { signPayment } from "../devnet/bitcoin/signPayment.js";
import { devnetEsplora } from "./support/devnetEsplora.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const AFTER_BLOCKS = 3;

describe("Bitcoin deposits to the depository that name no request, end to end", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ bitcoin: true, bitcoinRefundUnmatchedAfterBlocks: AFTER_BLOCKS });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const btc = () => stack.bitcoin!.devnet;
  const { esplora, spendable: balance } = devnetEsplora(() => stack);
  const DEPOSIT_FEE = 1_000n;
  /** A wallet's plain payment to the depository (output 0) from its one output, change back, and the memo if any. */
  const pay = async (payer: { address: string; wif: string }, amount: bigint, memo?: string) => {
    const [utxo] = (await esplora(`/address/${payer.address}/utxo`)) as Array<{
      txid: string;
      vout: number;
      value: number;
    }>;
    const value = BigInt(utxo!.value);
    const raw = signPayment({
      network: btc().network,
      wif: payer.wif,
      inputs: [{ txid: utxo!.txid, vout: utxo!.vout, value }],
      outputs: [
        { address: stack.bitcoin!.chain.depository, value: amount },
        { address: payer.address, value: value - amount - DEPOSIT_FEE },
        ...(memo === undefined ? [] : [{ opReturn: Buffer.from(memo, "latin1") }]),
      ],
    });
    const response = await fetch(`${btc().esploraUrl}/tx`, { method: "POST", body: raw });
    expect(response.status, await response.clone().text()).toBe(200);
    return response.text();
  };
  const unmatchedRefunds = async () =>
    (
      await stack.pool.query(
        `SELECT deposit_tx_hash, order_id, recipient, deposited, status, amount, fee, tx_hash, refund_fail_reason
           FROM crossfill.unmatched_refunds`,
      )
    ).rows;
  const factsNamingNoRequest = async () =>
    Number(
      (
        await stack.pool.query(
          `SELECT count(*) FROM crossfill.deposit_facts d
            WHERE d.block_hash <> '' AND NOT EXISTS (SELECT 1 FROM crossfill.requests r WHERE r.order_id = d.order_id)`,
        )
      ).rows[0].count,
    );

  it("refunds memo-less, malformed-memo and unknown-order payments to their payers after the configured blocks, to the satoshi; dust is unrefundable", async () => {
    const [plain, malformed, dust, unknownOrder] = btc().accounts;
    const payers = [plain!, malformed!, dust!, unknownOrder!];
    const before = await Promise.all(payers.map((payer) => balance(payer.address)));
    const orderId = `0x${"5a".repeat(32)}`;
    const deposits = {
      plain: await pay(plain!, 100_000n),
      malformed: await pay(malformed!, 200_000n, orderId.slice(0, -1)),
      // Above the dust limit of the depository's output, below a refund's fee plus the payer's dust limit.
      dust: await pay(dust!, 400n),
      unknownOrder: await pay(unknownOrder!, 150_000n, orderId),
    };

    btc().mine(1);
    await vi.waitFor(async () => expect(await factsNamingNoRequest()).toBe(4), { timeout: 20_000, interval: 100 });
    // One block short of the rule: nothing is refunded, however long the worker looks.
    btc().mine(AFTER_BLOCKS - 2);
    await sleep(4_000);
    expect(await unmatchedRefunds()).toEqual([]);
    for (const [index, payer] of payers.entries())
      expect(await balance(payer.address)).toBe(
        before[index]! - [100_000n, 200_000n, 400n, 150_000n][index]! - DEPOSIT_FEE,
      );

    btc().mine(1);
    await vi.waitFor(
      async () => {
        const rows = await unmatchedRefunds();
        expect(rows.map((row) => row.status).sort()).toEqual(["sent", "sent", "sent", "unrefundable"]);
      },
      { timeout: 20_000, interval: 200 },
    );
    const rows = new Map((await unmatchedRefunds()).map((row) => [row.deposit_tx_hash, row]));
    expect(rows.get(deposits.dust)).toMatchObject({
      status: "unrefundable",
      refund_fail_reason: "AMOUNT_TOO_LOW_TO_REFUND",
      recipient: dust!.address,
      tx_hash: null,
    });
    expect(rows.get(deposits.malformed)).toMatchObject({ order_id: "", recipient: malformed!.address });
    expect(rows.get(deposits.unknownOrder)).toMatchObject({ order_id: orderId, recipient: unknownOrder!.address });

    btc().mine(1);
    const paid = [
      [plain!, deposits.plain, 100_000n, before[0]!],
      [malformed!, deposits.malformed, 200_000n, before[1]!],
      [unknownOrder!, deposits.unknownOrder, 150_000n, before[3]!],
    ] as const;
    for (const [payer, depositTxid, amount, payerBefore] of paid) {
      const row = rows.get(depositTxid)!;
      const refund = await esplora(`/tx/${row.tx_hash}`);
      // It spends the deposit's output whole and pays the payer the deposit less the refund's own fee.
      expect(refund.status.confirmed).toBe(true);
      expect(refund.vin.map((input: { txid: string; vout: number }) => [input.txid, input.vout])).toEqual([
        [depositTxid, 0],
      ]);
      const refundFee = BigInt(refund.fee);
      expect(BigInt(row.fee)).toBe(refundFee);
      expect(BigInt(row.amount)).toBe(amount - refundFee);
      expect(refund.vout[0]).toMatchObject({ scriptpubkey_address: payer.address, value: Number(amount - refundFee) });
      expect(await balance(payer.address)).toBe(payerBefore - DEPOSIT_FEE - refundFee);
    }
    // The dust stays in the depository: its payer is out the payment and its fee.
    expect(await balance(dust!.address)).toBe(before[2]! - 400n - DEPOSIT_FEE);
    await vi.waitFor(
      async () =>
        expect((await unmatchedRefunds()).map((row) => row.status).sort()).toEqual([
          "confirmed",
          "confirmed",
          "confirmed",
          "unrefundable",
        ]),
      { timeout: 30_000, interval: 500 },
    );
    // Refunded deposits are never applied to a request; the refunds read as no deposits.
    expect(Number((await stack.pool.query("SELECT count(*) FROM crossfill.request_deposits")).rows[0].count)).toBe(0);
    expect(await factsNamingNoRequest()).toBe(4);
  }, 120_000);
});
