import { describe, expect, it } from "vitest";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import {
  type DepositFact,
  MEMPOOL_BLOCK_HASH,
  markDepositReorged,
  recordRequestDeposit,
  recordRequestDeposits,
} from "./chainFacts.js";
import { nextDepositAddressIndex } from "./depositAddresses.js";
import { readDepositContext, readDepositContexts } from "./depositContext.js";
import { withTransaction } from "./withTransaction.js";

const fact = (overrides: Partial<DepositFact> = {}): DepositFact => ({
  chainId: 8253038,
  txHash: `tx-${Math.random()}`,
  logIndex: 0,
  orderId: "order",
  depositor: "bcrt1quser",
  currency: "btc",
  amount: 1000n,
  blockNumber: 10n,
  blockHash: "block-a",
  timestamp: 1n,
  txFrom: "bcrt1quser",
  txFee: null,
  ...overrides,
});

describe("readDepositContext", () => {
  const db = useMigratedDatabase();
  const apply = (requestId: string, deposit: DepositFact) =>
    withTransaction(db.pool, (client) => recordRequestDeposit(client, { ...deposit, requestId }));

  it("tells whether the deposit is applied in its block, or from the mempool, and the request's deposit address", async () => {
    const plain = await insertTestRequest(db.pool);
    const mined = fact();
    expect(await readDepositContext(db.pool, plain.id, mined)).toEqual({
      applied: false,
      appliedFromMempool: false,
      depositAddressType: undefined,
    });
    await apply(plain.id, mined);
    expect(await readDepositContext(db.pool, plain.id, mined)).toMatchObject({ applied: true });
    // Mined again in another block (at another log index) it is the same payment, until its first block is found
    // reorged out; another payment in the same transaction is not.
    const remined = { ...mined, blockHash: "block-b", logIndex: 3 };
    expect(await readDepositContext(db.pool, plain.id, remined)).toMatchObject({ applied: true });
    expect(await readDepositContext(db.pool, plain.id, { ...remined, amount: 999n })).toMatchObject({ applied: false });
    expect(await readDepositContext(db.pool, plain.id, { ...mined, logIndex: 1 })).toMatchObject({ applied: false });
    await markDepositReorged(db.pool, mined, { reason: "deposit mined in another block" });
    expect(await readDepositContext(db.pool, plain.id, remined)).toMatchObject({
      applied: false,
      appliedFromMempool: false,
    });

    const seen = fact({ blockHash: MEMPOOL_BLOCK_HASH, blockNumber: 0n });
    await apply(plain.id, seen);
    expect(await readDepositContext(db.pool, plain.id, { ...seen, blockHash: "block-c" })).toMatchObject({
      applied: false,
      appliedFromMempool: true,
    });
    // The sighting itself is applied, not confirmed by itself.
    expect(await readDepositContext(db.pool, plain.id, seen)).toMatchObject({
      applied: true,
      appliedFromMempool: false,
    });
    await markDepositReorged(db.pool, { ...seen, blockHash: MEMPOOL_BLOCK_HASH }, { reason: "dropped" });
    expect(await readDepositContext(db.pool, plain.id, { ...seen, blockHash: "block-c" })).toMatchObject({
      appliedFromMempool: false,
    });

    const strict = await insertTestRequest(db.pool, {
      originChainId: 8253038,
      depositAddress: {
        chainId: 8253038,
        type: "strict",
        address: `bcrt1q${Math.random()}`,
        key: String(await nextDepositAddressIndex(db.pool)),
      },
    });
    expect(await readDepositContext(db.pool, strict.id, fact())).toMatchObject({ depositAddressType: "strict" });
  });

  it("reads many deposits' contexts in one statement, in the order given; many deposits are recorded in one", async () => {
    const [first, second] = [await insertTestRequest(db.pool), await insertTestRequest(db.pool)];
    const paid = fact();
    const unpaid = fact();
    const recorded = (deposits: Array<DepositFact & { requestId: string }>) =>
      withTransaction(db.pool, (client) => recordRequestDeposits(client, deposits));
    expect(await recorded([{ ...paid, requestId: first.id }])).toBe(1);
    expect(
      await recorded([
        { ...paid, requestId: first.id },
        { ...fact(), requestId: second.id },
      ]),
    ).toBe(1);
    const contexts = await readDepositContexts(db.pool, [
      { requestId: second.id, fact: unpaid },
      { requestId: first.id, fact: paid },
      { requestId: second.id, fact: unpaid },
    ]);
    expect(contexts.map((context) => context.applied)).toEqual([false, true, false]);
    expect(await readDepositContexts(db.pool, [])).toEqual([]);
  });
});
