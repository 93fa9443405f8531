import { zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEBUG_FORCE_REFUND_REFERRER } from "../jobs/createFillProcessor.js";
import { createEvmChainClient } from "../src/chains/evm/evmChainClient.js";
import { broadcastPsbt } from "./support/broadcastPsbt.js";
import { devnetEsplora } from "./support/devnetEsplora.js";
import { pollStatus } from "./support/pollStatus.js";
import { postBitcoinQuote, postBridgeQuote } from "./support/postQuote.js";
import { refundChecks } from "./support/refundChecks.js";
import { sendSteps } from "./support/sendSteps.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";

/** A quote from an origin family to the EVM destination, not paid yet. */
type OriginQuote = {
  requestId: string;
  /** Pays the quote's deposit as its steps say. */
  pay(): Promise<void>;
  /** The deposit is back with its payer, less only what the chain charged for the payment and the refund. */
  expectPaidBack(): Promise<void>;
};

/** What a failure-and-refund flow needs of an origin family's devnet. */
type OriginFamily = {
  name: string;
  quote(stack: TestStack, extra?: Record<string, unknown>): Promise<OriginQuote>;
  /** Keeps the chain moving while a flow waits (a chain that mines only on demand); stops when `until` settles. */
  mineUntil<T>(stack: TestStack, until: Promise<T>): Promise<T>;
};

const evmOrigin: OriginFamily = {
  name: "EVM",
  async quote(stack, extra = {}) {
    const [origin, destination] = stack.devnet.chains;
    const user = stack.devnet.accounts[2];
    const amount = 70_000_000_000_000_000n;
    const quote = await postBridgeQuote(stack.api.url, user, { origin, destination }, amount, extra);
    const client = createEvmChainClient(origin);
    const checks = refundChecks(stack);
    let deposit: Record<string, `0x${string}`> = {};
    let before: Awaited<ReturnType<typeof checks.balancesBefore>>;
    return {
      requestId: quote.body.requestId,
      async pay() {
        before = await checks.balancesBefore(client, user.address, zeroAddress);
        deposit = await sendSteps(quote.body, user, origin);
      },
      expectPaidBack: () =>
        checks.expectRefunded({
          requestId: quote.body.requestId,
          chainClient: client,
          currency: zeroAddress,
          user: user.address,
          depositTx: deposit.deposit!,
          deposited: amount,
          ...before,
        }),
    };
  },
  // anvil mines each transaction as it comes.
  mineUntil: (_stack, until) => until,
};

const bitcoinOrigin: OriginFamily = {
  name: "Bitcoin",
  async quote(stack, extra = {}) {
    const btc = stack.bitcoin!.devnet;
    const user = btc.accounts[4]!;
    const amount = 1_000_000n;
    const response = await postBitcoinQuote(stack, user.address, amount, {
      recipient: stack.devnet.accounts[1].address,
      ...extra,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const [step] = response.body.steps;
    const { esplora, spendable } = devnetEsplora(() => stack);
    let paid: { txid: string; fee: bigint } | undefined;
    let before = 0n;
    return {
      requestId: step.requestId,
      async pay() {
        before = await spendable(user.address);
        paid = await broadcastPsbt(btc, step.items[0].data.psbt, user.wif);
      },
      async expectPaidBack() {
        const { rows } = await stack.pool.query("SELECT * FROM crossfill.refunds WHERE request_id = $1", [
          step.requestId,
        ]);
        expect(rows).toMatchObject([{ status: "confirmed", deposit_tx_hash: paid!.txid, recipient: user.address }]);
        // The refund spends the deposit's output whole: its fee is the gas it charged, nothing else is kept.
        const gasCost = BigInt(rows[0].gas_cost);
        expect(BigInt(rows[0].amount)).toBe(amount - gasCost);
        const refundTx = await esplora(`/tx/${rows[0].tx_hash}`);
        expect(BigInt(refundTx.fee)).toBe(gasCost);
        expect(refundTx.vin.map((input: { txid: string }) => input.txid)).toEqual([paid!.txid]);
        expect(await spendable(user.address)).toBe(before - paid!.fee - gasCost);
      },
    };
  },
  async mineUntil(stack, until) {
    let settled = false;
    const miner = (async () => {
      while (!settled) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        if (!settled) stack.bitcoin!.devnet.mine(1);
      }
    })();
    try {
      return await until;
    } finally {
      settled = true;
      await miner;
    }
  },
};

const fillAttempts = async (stack: TestStack, requestId: string) =>
  (await stack.pool.query("SELECT 1 FROM crossfill.fill_attempts WHERE request_id = $1", [requestId])).rowCount;

/**
 * A request that fails after its deposit is paid back to its payer, from each devnet origin family: the solver
 * refusing to fill it, and a deposit made after the order's deadline. Nothing is filled.
 */
describe("a failed request's deposit refunded, end to end", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ bitcoin: true });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  describe.each([evmOrigin, bitcoinOrigin])("from $name", (family) => {
    it("refunds a deposit the solver refuses to fill (debug-force-refund: MANUAL_ADMIN_REFUND)", async () => {
      const quote = await family.quote(stack, { referrer: DEBUG_FORCE_REFUND_REFERRER });
      await quote.pay();
      const { statuses, last } = await family.mineUntil(
        stack,
        pollStatus(stack.api.url, quote.requestId, { until: ["refund"], timeoutMs: 45_000 }),
      );
      expect(statuses.slice(-2)).toEqual(["failure", "refund"]);
      expect(last.failReason).toBe("MANUAL_ADMIN_REFUND");
      await quote.expectPaidBack();
      expect(await fillAttempts(stack, quote.requestId)).toBe(0);
    }, 60_000);

    it("refunds a deposit made after the order's deadline (ORDER_EXPIRED)", async () => {
      const quote = await family.quote(stack);
      // The quote's time ran out before the user paid.
      await stack.pool.query("UPDATE crossfill.requests SET deadline = now() - interval '1 minute' WHERE id = $1", [
        quote.requestId,
      ]);
      await quote.pay();
      const { last } = await family.mineUntil(
        stack,
        pollStatus(stack.api.url, quote.requestId, { until: ["refund"], timeoutMs: 45_000 }),
      );
      expect(last.failReason).toBe("ORDER_EXPIRED");
      expect(await refundChecks(stack).events(quote.requestId)).toEqual(["waiting", "failure", "refund"]);
      await quote.expectPaidBack();
      expect(await fillAttempts(stack, quote.requestId)).toBe(0);
    }, 60_000);
  });
});
