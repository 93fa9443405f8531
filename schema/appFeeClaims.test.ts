import { zeroAddress } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { creditAppFees } from "./appFeeLedger.js";
import {
  appFeeBalances,
  findOpenAppFeeClaims,
  getAppFeeClaim,
  listAppFeeClaims,
  writeAppFeeClaim,
} from "./appFeeClaims.js";
import { withTransaction } from "./withTransaction.js";

const wallet = "0x00000000000000000000000000000000000000Aa";
const usdc = "0x00000000000000000000000000000000000000C1";
const fee = (amount: string) => ({ recipient: wallet, bps: "10", amount, amountFormatted: "", amountUsd: "0" });
let nextId = 0;
const claim = (amount: bigint, currency = usdc) => ({
  id: `0x${(++nextId).toString(16).padStart(64, "0")}`,
  wallet,
  chainId: 10,
  currency,
  recipient: "0x00000000000000000000000000000000000000bB",
  amount,
  signature: "0xsig",
});

describe("app fee ledger and claims (SQL)", () => {
  const database = useMigratedDatabase({ max: 6 });

  beforeAll(async () => {
    for (const amount of ["700", "300"]) {
      const request = await insertTestRequest(database.pool);
      const credit = { requestId: request.id, chainId: 10, currency: usdc, fees: [fee(amount)] };
      expect(await creditAppFees(database.pool, credit)).toBe(1);
      // Credited once per (request, recipient), however often the fill is reconciled.
      expect(await creditAppFees(database.pool, credit)).toBe(0);
    }
    const native = await insertTestRequest(database.pool);
    await creditAppFees(database.pool, { requestId: native.id, chainId: 20, currency: zeroAddress, fees: [fee("5")] });
  });

  it("sums a wallet's earnings per chain and currency, whatever the addresses' case", async () => {
    expect(await appFeeBalances(database.pool, wallet.toUpperCase().replace("0X", "0x"))).toEqual([
      { chainId: 10, currency: usdc.toLowerCase(), amount: 1000n },
      { chainId: 20, currency: zeroAddress, amount: 5n },
    ]);
    expect(await appFeeBalances(database.pool, usdc)).toEqual([]);
  });

  it("writes claims the balance covers, never two spending the same earnings at once, never one id twice", async () => {
    const write = (c: ReturnType<typeof claim>) => withTransaction(database.pool, (db) => writeAppFeeClaim(db, c));
    const first = claim(400n);
    expect(await write(first)).toEqual({ written: true });
    expect(await write({ ...first, amount: 1n })).toEqual({ written: false, reason: "duplicate" });
    // Five claims of 400 at once against the 600 left: exactly one fits.
    const results = await Promise.all(Array.from({ length: 5 }, () => write(claim(400n))));
    expect(results.filter((result) => result.written)).toHaveLength(1);
    expect(results.filter((result) => !result.written)).toEqual(
      Array.from({ length: 4 }, () => ({ written: false, reason: "balance", balance: 200n })),
    );
    expect(await write(claim(201n))).toEqual({ written: false, reason: "balance", balance: 200n });
    expect(await write(claim(1n, "0x00000000000000000000000000000000000000c2"))).toMatchObject({ reason: "balance" });
    expect((await appFeeBalances(database.pool, wallet))[0]).toEqual({
      chainId: 10,
      currency: usdc.toLowerCase(),
      amount: 200n,
    });
    const stored = await getAppFeeClaim(database.pool, first.id.toUpperCase().replace("0X", "0x"));
    expect(stored).toMatchObject({ amount: 400n, status: "queued", recipient: first.recipient.toLowerCase() });
    expect((await listAppFeeClaims(database.pool, wallet)).map((c) => c.amount)).toEqual([400n, 400n]);
    expect(await findOpenAppFeeClaims(database.pool, 5_000)).toHaveLength(2);
  });
});
