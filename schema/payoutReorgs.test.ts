import { randomBytes } from "node:crypto";
import { zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { type FillFact, insertFillFacts } from "./chainFacts.js";
import { applyIndexedFill } from "./receiptFills.js";
import { insertFillAttempt } from "./fillAttempts.js";
import {
  type PayoutReorg,
  findOrphanedFills,
  findReorgedPayouts,
  isPayoutReorgedOut,
  listPayoutReorgs,
  recordPayoutReorg,
} from "./payoutReorgs.js";
import { recordPollerCursors } from "./pollerCursors.js";
import { withTransaction } from "./withTransaction.js";

const CHAIN = 8253038;

describe("payout reorgs", () => {
  const database = useMigratedDatabase({ max: 3 });

  /** A request paid on the polled chain by `txHash` in block `height`, applied as reconcile applies it. */
  async function paid(height: number) {
    const request = await insertTestRequest(database.pool, { destinationChainId: CHAIN });
    const txHash = randomBytes(32).toString("hex");
    await insertFillAttempt(database.pool, {
      requestId: request.id,
      chainId: CHAIN,
      solver: "bcrt1qsolver",
      nonce: null,
      txHash,
      rawTx: "00",
      currency: zeroAddress,
      amount: 990n,
      recipient: "bcrt1qrecipient",
    });
    const fact: FillFact = {
      chainId: CHAIN,
      txHash,
      position: 0,
      requestId: request.id,
      currency: zeroAddress,
      recipient: "bcrt1qrecipient",
      amount: 990n,
      blockNumber: BigInt(height),
      blockHash: `hash-${height}`,
      timestamp: 1_700_000_000n,
      txFee: 200n,
    };
    await insertFillFacts(database.pool, [fact]);
    await withTransaction(database.pool, (client) => applyIndexedFill(client, fact));
    return { requestId: request.id, txHash };
  }
  const reorg = (txHash: string, blockNumber: number): PayoutReorg => ({
    detectedAt: 1,
    source: "poller",
    reason: "payout transaction no longer in the chain",
    txHash,
    blockNumber,
    action: "rebroadcast",
  });
  const mine = (id: string) => async () =>
    (await findOrphanedFills(database.pool, "onchain_payout_fixture")).filter((o) => o.requestId === id);

  it("finds an applied fill whose fact its poller deleted, records it once, and forgets it once applied again", async () => {
    // An empty Ponder fill view, as the reconcile reads it.
    await database.pool.query(
      "CREATE SCHEMA onchain_payout_fixture; CREATE TABLE onchain_payout_fixture.fill (chain_id integer, tx_hash text, log_index integer)",
    );
    // The poller keeps blocks 100–110; a fill below them cannot be walked back and is never reported.
    await withTransaction(database.pool, (client) =>
      recordPollerCursors(
        client,
        CHAIN,
        Array.from({ length: 11 }, (_, i) => ({ position: 100 + i, key: `hash-${100 + i}` })),
        100,
      ),
    );
    const kept = await paid(108);
    const old = await paid(50);
    const orphans = mine(kept.requestId);
    expect(await orphans()).toEqual([]);

    await database.pool.query("DELETE FROM crossfill.fill_facts WHERE tx_hash = ANY($1)", [[kept.txHash, old.txHash]]);
    const [orphan] = await orphans();
    expect(orphan).toEqual({
      requestId: kept.requestId,
      chainId: CHAIN,
      txHash: kept.txHash,
      position: 0,
      blockNumber: 108n,
    });
    expect(await mine(old.requestId)()).toEqual([]);

    expect(await isPayoutReorgedOut(database.pool, kept.requestId)).toBe(false);
    expect(
      await withTransaction(database.pool, (client) => recordPayoutReorg(client, orphan!, reorg(kept.txHash, 108))),
    ).toBe(true);
    expect(
      await withTransaction(database.pool, (client) => recordPayoutReorg(client, orphan!, reorg(kept.txHash, 108))),
    ).toBe(false);
    expect(await orphans()).toEqual([]);
    expect(await isPayoutReorgedOut(database.pool, kept.requestId)).toBe(true);
    expect(await findReorgedPayouts(database.pool)).toContain(kept.requestId);
    expect(await listPayoutReorgs(database.pool, kept.requestId)).toEqual([reorg(kept.txHash, 108)]);

    // Mined again in block 110 and applied anew: no longer out, the event kept.
    await withTransaction(database.pool, (client) =>
      applyIndexedFill(client, {
        chainId: CHAIN,
        txHash: kept.txHash,
        position: 0,
        requestId: kept.requestId,
        currency: zeroAddress,
        recipient: "bcrt1qrecipient",
        amount: 990n,
        blockNumber: 110n,
        blockHash: "b110",
        timestamp: 1_700_000_100n,
        txFee: 200n,
      }),
    );
    expect(await isPayoutReorgedOut(database.pool, kept.requestId)).toBe(false);
    expect(await findReorgedPayouts(database.pool)).not.toContain(kept.requestId);
    expect(await listPayoutReorgs(database.pool, kept.requestId)).toHaveLength(1);
  });
});
