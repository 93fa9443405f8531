import { describe, expect, it } from "vitest";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { getDepositSweep, insertDepositSweep, markDepositSweepConfirmed } from "./depositSweeps.js";

describe("depositSweeps", () => {
  const db = useMigratedDatabase();

  it("keeps one sweep per deposit output: the first stored wins, a skip has no transaction", async () => {
    const request = await insertTestRequest(db.pool);
    const deposit = { chainId: 8253038, txHash: "aa".repeat(32), position: 0, requestId: request.id };
    expect(await getDepositSweep(db.pool, deposit)).toBeUndefined();
    const signed = { rawTx: "raw 1", txHash: "sweep 1", amount: 900n, fee: 100n };
    expect(await insertDepositSweep(db.pool, deposit, signed)).toBe(true);
    expect(await insertDepositSweep(db.pool, deposit, { ...signed, rawTx: "raw 2", txHash: "sweep 2" })).toBe(false);
    expect(await insertDepositSweep(db.pool, deposit, { skip: "no" })).toBe(false);
    expect(await getDepositSweep(db.pool, deposit)).toEqual({
      requestId: request.id,
      sweepTxHash: "sweep 1",
      rawTx: "raw 1",
      amount: 900n,
      fee: 100n,
      skipped: null,
      returned: null,
      confirmedAt: null,
    });
    const withReturn = { ...deposit, position: 2 };
    const returned = { recipient: "bcrt1qrefund", amount: 50n };
    expect(await insertDepositSweep(db.pool, withReturn, { ...signed, txHash: "sweep 3", returned })).toBe(true);
    expect((await getDepositSweep(db.pool, withReturn))?.returned).toEqual(returned);
    await markDepositSweepConfirmed(db.pool, deposit);
    expect((await getDepositSweep(db.pool, deposit))?.confirmedAt).toBeInstanceOf(Date);

    const other = { ...deposit, position: 1 };
    expect(await insertDepositSweep(db.pool, other, { skip: "paid the depository" })).toBe(true);
    expect(await getDepositSweep(db.pool, other)).toMatchObject({
      sweepTxHash: null,
      rawTx: null,
      skipped: "paid the depository",
    });
  });
});
