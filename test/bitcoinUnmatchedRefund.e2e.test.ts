import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signPayment } from "../devnet/bitcoin/signPayment.js";
import { devnetEsplora } from "./support/devnetEsplora.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";
import { unmatchedRefundsCase } from "./support/unmatchedRefundsCase.js";

type Payer = { address: string; wif: string };
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
  const pay = async (payer: Payer, amount: bigint, memo?: string) => {
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
  it("refunds memo-less, malformed-memo and unknown-order payments to their payers after the configured blocks, to the satoshi; dust is unrefundable", async () => {
    const [plain, malformed, dust, unknownOrder] = btc().accounts as [Payer, Payer, Payer, Payer];
    const orderId = `0x${"5a".repeat(32)}`;
    const before = new Map<string, bigint>();
    await unmatchedRefundsCase({
      stack: () => stack,
      async pay() {
        for (const payer of [plain, malformed, dust, unknownOrder])
          before.set(payer.address, await balance(payer.address));
        const payment = async (payer: Payer, amount: bigint, orderId: string, memo?: string, refundable = true) => ({
          txHash: await pay(payer, amount, memo),
          payer: payer.address,
          amount,
          orderId,
          refundable,
        });
        return [
          await payment(plain, 100_000n, ""),
          await payment(malformed, 200_000n, "", orderId.slice(0, -1)),
          // Above the dust limit of the depository's output, below a refund's fee plus the payer's dust limit.
          await payment(dust, 400n, "", undefined, false),
          await payment(unknownOrder, 150_000n, orderId, orderId),
        ];
      },
      record: async () => void btc().mine(1),
      shortOfRule: async () => void btc().mine(AFTER_BLOCKS - 2),
      watchMs: 4_000,
      pastRule: async () => void btc().mine(1),
      confirmSent: async () => void btc().mine(1),
      payerLoss: async (payment) => before.get(payment.payer)! - (await balance(payment.payer)) - DEPOSIT_FEE,
      async checkRefund(row, payment) {
        const refund = await esplora(`/tx/${row.tx_hash}`);
        // It spends the deposit's output whole and pays the payer the deposit less the refund's own fee.
        expect(refund.status.confirmed).toBe(true);
        expect(refund.vin.map((input: { txid: string; vout: number }) => [input.txid, input.vout])).toEqual([
          [payment.txHash, 0],
        ]);
        expect(BigInt(row.fee!)).toBe(BigInt(refund.fee));
        expect(refund.vout[0]).toMatchObject({ scriptpubkey_address: payment.payer, value: Number(row.amount) });
      },
      timeoutMs: 30_000,
      quietMs: 0,
    });
  }, 120_000);
});
