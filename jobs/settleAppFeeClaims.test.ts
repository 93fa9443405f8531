import { beforeAll, describe, expect, it } from "vitest";
import {
  appFeeBalances,
  failRevertedAppFeeClaim,
  getAppFeeClaim,
  markAppFeeClaimSent,
  writeAppFeeClaim,
} from "../schema/appFeeClaims.js";
import { listOpenOperatorAlerts } from "../schema/operatorAlerts.js";
import { creditAppFees } from "../schema/appFeeLedger.js";
import { withTransaction } from "../schema/withTransaction.js";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { settleAppFeeClaims } from "./settleAppFeeClaims.js";

const wallet = "0x00000000000000000000000000000000000000aa";
const id = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;

describe("settleAppFeeClaims", () => {
  const database = useMigratedDatabase();
  beforeAll(async () => {
    await database.pool.query(`CREATE SCHEMA onchain_fixture;
      CREATE TABLE onchain_fixture.withdrawal (chain_id integer, tx_hash text)`);
    const request = await insertTestRequest(database.pool);
    const fee = { recipient: wallet, bps: "10", amount: "1000", amountFormatted: "", amountUsd: "0" };
    await creditAppFees(database.pool, { requestId: request.id, chainId: 10, currency: "0xc1", fees: [fee] });
    for (const n of [1, 2]) {
      const claim = {
        id: id(n),
        wallet,
        chainId: 10,
        currency: "0xc1",
        recipient: "0xbb",
        amount: 1n,
        signature: "0x",
      };
      await withTransaction(database.pool, (db) => writeAppFeeClaim(db, claim));
    }
    await withTransaction(database.pool, (db) =>
      markAppFeeClaimSent(db, id(2), { nonce: 1, txHash: "0xpaid", rawTx: "0x" }),
    );
  });

  it("marks a payout the indexer saw as paid and queues the claims still waiting", async () => {
    const queued: string[] = [];
    const run = () =>
      settleAppFeeClaims({
        pool: database.pool,
        onchainSchema: "onchain_fixture",
        enqueueClaim: async (claimId) => void queued.push(claimId),
      });
    expect(await run()).toEqual({ paid: 0, queued: 1 });
    expect(queued).toEqual([id(1)]);
    await database.pool.query("INSERT INTO onchain_fixture.withdrawal VALUES (10, '0xpaid')");
    expect(await run()).toEqual({ paid: 1, queued: 1 });
    expect((await getAppFeeClaim(database.pool, id(2)))?.status).toBe("paid");
    expect(await run()).toEqual({ paid: 0, queued: 1 });
  });

  it("takes a claim failed on its reverted payout for paid when a reorg mines that payout again, and alerts", async () => {
    const reverted = id(3);
    const claim = {
      id: reverted,
      wallet,
      chainId: 10,
      currency: "0xc1",
      recipient: "0xbb",
      amount: 5n,
      signature: "0x",
    };
    await withTransaction(database.pool, async (db) => {
      await writeAppFeeClaim(db, claim);
      await markAppFeeClaimSent(db, reverted, { nonce: 2, txHash: "0xreverted", rawTx: "0x" });
    });
    await failRevertedAppFeeClaim(database.pool, reverted, "the payout 0xreverted reverted on-chain");
    const balance = async () => (await appFeeBalances(database.pool, wallet))[0]?.amount;
    const before = await balance();
    await database.pool.query("INSERT INTO onchain_fixture.withdrawal VALUES (10, '0xreverted')");
    const run = () =>
      settleAppFeeClaims({
        pool: database.pool,
        onchainSchema: "onchain_fixture",
        enqueueClaim: async () => undefined,
      });
    expect(await run()).toMatchObject({ paid: 1 });
    expect((await getAppFeeClaim(database.pool, reverted))?.status).toBe("paid");
    // Paid: its amount is no longer claimable.
    expect(await balance()).toBe(before! - 5n);
    const alerts = (await listOpenOperatorAlerts(database.pool)).filter((alert) => alert.subject === reverted);
    expect(alerts).toMatchObject([{ kind: "APP_FEE_CLAIM_PAID_AFTER_REVERT", details: { txHash: "0xreverted" } }]);
    expect(await run()).toMatchObject({ paid: 0 });
  });
});
