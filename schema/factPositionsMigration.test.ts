import { describe, expect, it } from "vitest";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { type DepositFact, insertDepositFacts } from "./chainFacts.js";
import { migrate } from "./migrate.js";
import { getRefund, queueRefund } from "./refunds.js";
import { depositsOfRequests } from "./requestChainFacts.js";
import { findAppliedDeposit, recordRequestDeposit } from "./requestDeposits.js";
import { requestViewsByIds } from "./requestsQuery.js";
import { findUnappliedDeposits } from "./unappliedFacts.js";
import { withTransaction } from "./withTransaction.js";

// Migration 0330: fact positions are bigint, so a TON lt or a Solana position beyond 2^53 is kept and read exactly.
describe("migration 0330_fact_positions_bigint", () => {
  const database = useMigratedDatabase({ before: 330 });
  const CHAIN = 900_330;
  // 2^60 + 1: a Number would read it as 2^60, the position of another fact.
  const FAR = 2n ** 60n + 1n;

  it("keeps the integer positions, then stores and reads back a position above 2^53 exactly", async () => {
    const { pool } = database;
    const request = await insertTestRequest(pool);
    const fact = (txHash: string, position: DepositFact["position"]): DepositFact => ({
      chainId: CHAIN,
      txHash,
      position,
      orderId: request.orderId,
      depositor: "EQdepositor",
      currency: "ton",
      amount: 1000n,
      blockNumber: 5n,
      blockHash: "block-5",
      timestamp: 1_700_000_000n,
      txFrom: "EQdepositor",
      txFee: null,
    });
    await insertDepositFacts(pool, [fact("tx-old", 3)], "poller");
    // Above the old column's range: refused before, kept after.
    await expect(insertDepositFacts(pool, [fact("tx-far", FAR)], "poller")).rejects.toThrow(/out of range/);

    expect(await migrate(pool)).toContain("330_fact_positions_bigint");

    await insertDepositFacts(pool, [fact("tx-far", FAR), fact("tx-far", 2n ** 60n)], "poller");
    // Ponder's view, empty: its deposits' integer positions union with the bigint ones.
    await pool.query(
      `CREATE SCHEMA onchain_fixture;
       CREATE TABLE onchain_fixture.deposit (chain_id integer, order_id text, depositor text, currency text,
         amount numeric(78,0), tx_hash text, log_index integer, block_number numeric(78,0), block_hash text,
         timestamp numeric(78,0), tx_from text, tx_fee numeric(78,0));`,
    );
    const unapplied = await findUnappliedDeposits(pool, "onchain_fixture");
    expect(unapplied.map((found) => [found.txHash, found.position])).toEqual([
      ["tx-old", 3],
      ["tx-far", 2n ** 60n],
      ["tx-far", FAR],
    ]);

    const far = unapplied.find((found) => found.position === FAR)!;
    await withTransaction(pool, (client) => recordRequestDeposit(client, { ...far, requestId: request.id }));
    expect(
      (await findAppliedDeposit(pool, { chainId: CHAIN, txHash: "tx-far", position: FAR }))?.deposit,
    ).toMatchObject({ position: FAR });
    expect(await findAppliedDeposit(pool, { chainId: CHAIN, txHash: "tx-far", position: 2n ** 60n })).toBeUndefined();
    expect((await depositsOfRequests(pool, [request.id]))[0]!.map((deposit) => deposit.logIndex)).toEqual([FAR]);
    const [view] = await requestViewsByIds(pool, [request.id]);
    expect(view?.deposits.map((deposit) => deposit.logIndex)).toEqual([FAR]);

    const refundId = await queueRefund(pool, {
      requestId: request.id,
      deposit: { chainId: CHAIN, txHash: "tx-far", position: FAR, currency: "ton", amount: 1000n },
      reason: "test",
      refundsRequest: true,
      recipient: "EQdepositor",
    });
    expect((await getRefund(pool, refundId!))?.depositPosition).toBe(FAR);
  });
});
