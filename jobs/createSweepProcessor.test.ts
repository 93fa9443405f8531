import { fakeChainAdapters } from "../test/support/fakeChainAdapters.js";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { recordRequestDeposit } from "../schema/requestDeposits.js";
import { findSweepableDeposits, getDepositSweep } from "../schema/depositSweeps.js";
import { transitionRequest } from "../schema/transitionRequest.js";
import { withTransaction } from "../schema/withTransaction.js";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { createSweepProcessor } from "./createSweepProcessor.js";

const CHAIN = 8253038;
let nextIndex = 0;

/** The adapter calls a sweep makes, recorded; `skip` answers that the deposit paid the depository. */
function fakeChain(options: { skip?: boolean } = {}) {
  const calls: string[] = [];
  let mined = false;
  const chain = {
    signSweep: async (deposit: { txHash: string }, excess?: { recipient: string; keep: bigint }) => {
      calls.push(`sign ${deposit.txHash}${excess ? ` returning above ${excess.keep} to ${excess.recipient}` : ""}`);
      return options.skip
        ? { skip: "paid the depository" }
        : { rawTx: `raw of ${deposit.txHash}`, txHash: `sweep of ${deposit.txHash}`, amount: 9_800n, fee: 200n };
    },
    transactionMined: async (txHash: string) => {
      calls.push(`mined? ${txHash}`);
      return mined;
    },
    broadcast: async (tx: { rawTx: string }) => void calls.push(`broadcast ${tx.rawTx}`),
  };
  const adapters = fakeChainAdapters(() => chain);
  return { calls, adapters, mine: () => (mined = true) };
}

describe("sweepDeposit", () => {
  const db = useMigratedDatabase();
  const logger = pino({ level: "silent" });

  /** A deposit-address request paid by `txHash`, moved to `status`. */
  async function paidRequest(
    txHash: string,
    status: "success" | "failure",
    terms: { type: "open" | "strict"; tradeType: "EXACT_INPUT" | "EXACT_OUTPUT" } = {
      type: "open",
      tradeType: "EXACT_INPUT",
    },
  ) {
    const index = nextIndex++;
    const request = await insertTestRequest(db.pool, {
      originChainId: CHAIN,
      tradeType: terms.tradeType,
      refundTo: "bcrt1qrefundto",
      depositAddress: { chainId: CHAIN, address: `bcrt1qaddress${index}`, key: String(index), type: terms.type },
    });
    await withTransaction(db.pool, async (client) => {
      await recordRequestDeposit(client, {
        chainId: CHAIN,
        txHash,
        position: 1,
        requestId: request.id,
        orderId: request.orderId,
        depositor: "bcrt1qpayer",
        currency: "btc",
        amount: 10_000n,
        blockNumber: 5n,
        blockHash: "block",
        timestamp: 1n,
        txFrom: "bcrt1qpayer",
        txFee: 100n,
      });
      await transitionRequest(client, { requestId: request.id, to: "pending" });
      await transitionRequest(client, { requestId: request.id, to: status });
    });
    return { chainId: CHAIN, txHash, position: 1, requestId: request.id };
  }

  it("sweeps the deposits of succeeded requests once: stored, then sent; re-sent until mined, then confirmed", async () => {
    const deposit = await paidRequest("deposit-a", "success");
    const refunded = await paidRequest("deposit-b", "failure");
    const sweepable = await findSweepableDeposits(db.pool, 60_000);
    expect(sweepable).toContainEqual(deposit);
    expect(sweepable.map((d) => d.txHash)).not.toContain(refunded.txHash);

    const chain = fakeChain();
    const sweep = createSweepProcessor({ pool: db.pool, adapters: chain.adapters, logger });
    // Two jobs at once: one sweep is stored and both send that one.
    expect(await Promise.all([sweep({ data: deposit }), sweep({ data: deposit })])).toEqual([
      "sweep of deposit-a",
      "sweep of deposit-a",
    ]);
    expect(new Set(chain.calls.filter((call) => call.startsWith("broadcast")))).toEqual(
      new Set(["broadcast raw of deposit-a"]),
    );
    expect(await getDepositSweep(db.pool, deposit)).toMatchObject({
      requestId: deposit.requestId,
      sweepTxHash: "sweep of deposit-a",
      rawTx: "raw of deposit-a",
      amount: 9_800n,
      fee: 200n,
      skipped: null,
      confirmedAt: null,
    });
    // Stored: not sweepable again until the recheck time has passed.
    expect(await findSweepableDeposits(db.pool, 60_000)).not.toContainEqual(deposit);
    expect(await findSweepableDeposits(db.pool, 0)).toContainEqual(deposit);

    chain.calls.length = 0;
    expect(await sweep({ data: deposit })).toBe("sweep of deposit-a");
    expect(chain.calls).toEqual(["mined? sweep of deposit-a", "broadcast raw of deposit-a"]);
    chain.mine();
    await sweep({ data: deposit });
    expect((await getDepositSweep(db.pool, deposit))?.confirmedAt).toBeInstanceOf(Date);
    expect(await findSweepableDeposits(db.pool, 0)).not.toContainEqual(deposit);
  });

  it("returns what a strict EXACT_OUTPUT request was paid above its quoted input to refundTo, and nothing of others", async () => {
    const strictOutput = await paidRequest("deposit-d", "success", { type: "strict", tradeType: "EXACT_OUTPUT" });
    const strictInput = await paidRequest("deposit-e", "success", { type: "strict", tradeType: "EXACT_INPUT" });
    const openOutput = await paidRequest("deposit-f", "success", { type: "open", tradeType: "EXACT_OUTPUT" });
    const chain = fakeChain();
    const sweep = createSweepProcessor({ pool: db.pool, adapters: chain.adapters, logger });
    for (const deposit of [strictOutput, strictInput, openOutput]) await sweep({ data: deposit });
    expect(chain.calls.filter((call) => call.startsWith("sign"))).toEqual([
      "sign deposit-d returning above 1000 to bcrt1qrefundto",
      "sign deposit-e",
      "sign deposit-f",
    ]);
  });

  it("stores a deposit that needs no sweep as skipped, and never looks at it again", async () => {
    const deposit = await paidRequest("deposit-c", "success");
    const chain = fakeChain({ skip: true });
    const sweep = createSweepProcessor({ pool: db.pool, adapters: chain.adapters, logger });
    expect(await sweep({ data: deposit })).toBe("skipped: paid the depository");
    expect(await sweep({ data: deposit })).toBe("skipped: paid the depository");
    expect(chain.calls).toEqual(["sign deposit-c"]);
    expect(await findSweepableDeposits(db.pool, 0)).not.toContainEqual(deposit);
  });
});
