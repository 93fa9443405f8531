import { fakeChainAdapters } from "../test/support/fakeChainAdapters.js";
import pino from "pino";
import { beforeAll, describe, expect, it } from "vitest";
import { appFeeBalances, findOpenAppFeeClaims, getAppFeeClaim, writeAppFeeClaim } from "../schema/appFeeClaims.js";
import { creditAppFees } from "../schema/appFeeLedger.js";
import { withTransaction } from "../schema/withTransaction.js";
import type { MinedReceipt } from "../src/chains/adapter.js";
import { listOpenOperatorAlerts } from "../schema/operatorAlerts.js";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { createAppFeeClaimPayoutProcessor } from "./createAppFeeClaimPayoutProcessor.js";

const wallet = "0x00000000000000000000000000000000000000aa";
const usdc = "0x00000000000000000000000000000000000000c1";
const claimId = `0x${"cd".repeat(32)}`;

/**
 * The adapter calls a payout makes, recorded; `refuse` makes the withdrawal's simulation revert, `mine` gives the
 * receipt the node shows of a sent withdrawal (none by default).
 */
function fakeChain() {
  const calls: string[] = [];
  let signed = 0;
  let refuse = false;
  let receipt: MinedReceipt | null = null;
  const chain = {
    readReceipt: async (txHash: string) => {
      calls.push(`receipt ${txHash}`);
      return receipt;
    },
    prepareRefund: async (refund: { orderId: string; recipient: string; amount: bigint }) => {
      calls.push(`prepare ${refund.orderId} ${refund.recipient} ${refund.amount}`);
      return refuse
        ? { refusal: "ERC20: transfer amount exceeds balance" }
        : { transaction: { chainId: 10, payload: {} } };
    },
    signTransaction: async () => {
      signed += 1;
      calls.push(`sign ${signed}`);
      return { nonce: signed, rawTx: `0xraw${signed}`, txHash: `0xhash${signed}` };
    },
    broadcast: async (tx: { rawTx: string }) => void calls.push(`broadcast ${tx.rawTx}`),
  };
  const adapters = fakeChainAdapters(() => chain);
  return {
    calls,
    adapters,
    refuse: (value: boolean) => (refuse = value),
    mine: (value: MinedReceipt | null) => (receipt = value),
  };
}

/** A claim of `wallet`'s USDC earnings on chain 10 to 0xbb, as the gateway writes it. */
const claimOf = (id: string, amount: bigint) => ({
  id,
  wallet,
  chainId: 10,
  currency: usdc,
  recipient: "0xbb",
  amount,
  signature: "0x",
});

describe("payAppFeeClaim", () => {
  const database = useMigratedDatabase();
  beforeAll(async () => {
    const request = await insertTestRequest(database.pool);
    const fee = { recipient: wallet, bps: "10", amount: "1000", amountFormatted: "", amountUsd: "0" };
    await creditAppFees(database.pool, { requestId: request.id, chainId: 10, currency: usdc, fees: [fee] });
    await withTransaction(database.pool, (db) => writeAppFeeClaim(db, claimOf(claimId, 700n)));
  });

  it("withdraws the claim from the Depository to the signed recipient, stored before it is sent, and only re-sends it after", async () => {
    const chain = fakeChain();
    const pay = createAppFeeClaimPayoutProcessor({
      pool: database.pool,
      adapters: chain.adapters,
      logger: pino({ level: "silent" }),
    });
    chain.refuse(true);
    expect(await pay({ data: { claimId } })).toMatch(/^refused: retry at /);
    const refused = await getAppFeeClaim(database.pool, claimId);
    expect(refused).toMatchObject({ status: "queued", attempts: 1 });
    expect(refused?.lastError).toMatch(/cannot pay 700 .* transfer amount exceeds balance/);
    // Not due again before its backoff (10 s by default): the reconcile tick leaves it.
    expect(refused!.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now() + 5_000);
    expect(await findOpenAppFeeClaims(database.pool, 5_000)).not.toContain(claimId);
    chain.refuse(false);
    expect(await pay({ data: { claimId } })).toBe("0xhash1");
    expect(await getAppFeeClaim(database.pool, claimId)).toMatchObject({
      status: "sent",
      txHash: "0xhash1",
      rawTx: "0xraw1",
    });
    // A retry (a lost job, a second worker) sends the same bytes: no second withdrawal is signed.
    expect(await pay({ data: { claimId } })).toBe("0xhash1");
    expect(chain.calls).toEqual([
      `prepare ${claimId} 0xbb 700`,
      `prepare ${claimId} 0xbb 700`,
      "sign 1",
      "broadcast 0xraw1",
      "receipt 0xhash1",
      "broadcast 0xraw1",
    ]);
    expect(await pay({ data: { claimId: `0x${"00".repeat(32)}` } })).toBe("skipped: unknown");
  });

  it("retries a payout the Depository cannot cover with backoff, then fails it and frees its amount to claim again", async () => {
    const chain = fakeChain();
    const failingId = `0x${"ef".repeat(32)}`;
    const pay = createAppFeeClaimPayoutProcessor({
      pool: database.pool,
      adapters: chain.adapters,
      logger: pino({ level: "silent" }),
      retry: { retryBaseMs: 1, maxAttempts: 3 },
    });
    // 1000 earned, 700 claimed above: 300 left, all of it claimed here.
    const claim = claimOf(failingId, 300n);
    expect(await withTransaction(database.pool, (db) => writeAppFeeClaim(db, claim))).toEqual({ written: true });
    expect(await appFeeBalances(database.pool, wallet)).toEqual([]);
    chain.refuse(true);
    for (const attempt of [1, 2]) {
      expect(await pay({ data: { claimId: failingId } })).toMatch(/^refused/);
      const queued = await getAppFeeClaim(database.pool, failingId);
      expect(queued).toMatchObject({ status: "queued", attempts: attempt });
      // Due after 1 ms, 2 ms: the reconcile tick queues it again.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await findOpenAppFeeClaims(database.pool, 5_000)).toContain(failingId);
    }
    expect(await pay({ data: { claimId: failingId } })).toBe("failed after 3 refused payouts");
    const failed = await getAppFeeClaim(database.pool, failingId);
    expect(failed).toMatchObject({ status: "failed", attempts: 3, nextAttemptAt: null, txHash: null });
    expect(failed?.lastError).toMatch(/transfer amount exceeds balance/);
    expect(await findOpenAppFeeClaims(database.pool, 5_000)).not.toContain(failingId);
    expect(await appFeeBalances(database.pool, wallet)).toEqual([{ chainId: 10, currency: usdc, amount: 300n }]);
    // A failed claim is never paid, whatever runs it again; the same signature cannot be written twice.
    chain.refuse(false);
    expect(await pay({ data: { claimId: failingId } })).toBe("skipped: failed");
    expect(await withTransaction(database.pool, (db) => writeAppFeeClaim(db, claim))).toEqual({
      written: false,
      reason: "duplicate",
    });
    expect(chain.calls.filter((call) => call.startsWith("sign"))).toEqual([]);
  });

  it("fails a claim whose payout reverted once mined, returns its amount to the balance, alerts, and never re-sends it", async () => {
    const chain = fakeChain();
    const revertingId = `0x${"a1".repeat(32)}`;
    const pay = createAppFeeClaimPayoutProcessor({
      pool: database.pool,
      adapters: chain.adapters,
      logger: pino({ level: "silent" }),
    });
    // The 300 the previous claim freed, claimed again.
    const claim = claimOf(revertingId, 300n);
    expect(await withTransaction(database.pool, (db) => writeAppFeeClaim(db, claim))).toEqual({ written: true });
    expect(await pay({ data: { claimId: revertingId } })).toBe("0xhash1");
    expect(await appFeeBalances(database.pool, wallet)).toEqual([]);
    chain.mine({ succeeded: false, blockNumber: 42n });
    expect(await pay({ data: { claimId: revertingId } })).toBe("failed: payout 0xhash1 reverted");
    const failed = await getAppFeeClaim(database.pool, revertingId);
    expect(failed).toMatchObject({ status: "failed", txHash: "0xhash1" });
    expect(failed?.lastError).toMatch(/0xhash1 reverted/);
    expect(await appFeeBalances(database.pool, wallet)).toEqual([{ chainId: 10, currency: usdc, amount: 300n }]);
    const alerts = (await listOpenOperatorAlerts(database.pool)).filter((alert) => alert.subject === revertingId);
    expect(alerts).toMatchObject([{ kind: "APP_FEE_CLAIM_REVERTED", details: { txHash: "0xhash1", amount: "300" } }]);
    expect(await pay({ data: { claimId: revertingId } })).toBe("skipped: failed");
    expect(await findOpenAppFeeClaims(database.pool, 0)).not.toContain(revertingId);
    expect(chain.calls.filter((call) => call.startsWith("broadcast"))).toEqual(["broadcast 0xraw1"]);
  });
});
