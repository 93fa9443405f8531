import { describe, expect, it } from "vitest";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { listHeldSolverCurrencies, listSolverInventory, owedBySolver, saveSolverBalances } from "./solverBalances.js";

const USDC = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const SOLANA = 792703809;
// Two valid Solana mints whose base58 differs only in the case of the last letter: different tokens.
const MINT = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const MINT_OTHER_CASE = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1V";

describe("solverBalances", () => {
  const db = useMigratedDatabase();
  const balance = (chainId: number, amount: bigint, readAt: Date) => ({
    chainId,
    currency: USDC,
    symbol: "USDC",
    decimals: 6,
    solver: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
    balance: amount,
    readAt,
  });

  it("keeps the newest read per chain and currency and lists it with what open requests owe", async () => {
    await saveSolverBalances(db.pool, [balance(31339, 5_000n, new Date(2_000))]);
    // an older read arriving late does not overwrite a newer one
    await saveSolverBalances(db.pool, [balance(31339, 9_999n, new Date(1_000))]);
    const owing = async (status: string, amountOut: bigint, currency = USDC.toLowerCase()) => {
      const request = await insertTestRequest(db.pool, { destinationCurrency: currency, amountOut });
      await db.pool.query("UPDATE crossfill.requests SET status = $2 WHERE id = $1", [request.id, status]);
    };
    await owing("pending", 700n);
    await owing("submitted", 200n, USDC);
    await owing("depositing", 100n);
    // quoted and never paid, already paid, or failed: owed nothing
    await owing("waiting", 1_000_000n);
    await owing("success", 1_000_000n);
    await owing("failure", 1_000_000n);
    expect(await owedBySolver(db.pool, 31339, USDC)).toBe(1_000n);
    expect(await owedBySolver(db.pool, 31338, USDC)).toBe(0n);
    expect(await listSolverInventory(db.pool)).toEqual([{ ...balance(31339, 5_000n, new Date(2_000)), owed: 1_000n }]);
  });

  it("tells Solana mints differing only by case apart: what each owes, and which the solver holds, as written", async () => {
    const read = (currency: string, amount: bigint) => ({
      ...balance(SOLANA, amount, new Date(3_000)),
      currency,
      solver: "GdJCc3t6rd4nmgqHkVZNg3DPtYcPntY1fH4VEH9V8iVT",
    });
    await saveSolverBalances(db.pool, [read(MINT, 5_000n), read(MINT_OTHER_CASE, 0n)]);
    const owing = async (currency: string, amountOut: bigint) => {
      const request = await insertTestRequest(db.pool, {
        destinationChainId: SOLANA,
        destinationCurrency: currency,
        amountOut,
      });
      await db.pool.query("UPDATE crossfill.requests SET status = 'pending' WHERE id = $1", [request.id]);
    };
    await owing(MINT, 300n);
    await owing(MINT_OTHER_CASE, 40n);
    expect(await owedBySolver(db.pool, SOLANA, MINT)).toBe(300n);
    expect(await owedBySolver(db.pool, SOLANA, MINT_OTHER_CASE)).toBe(40n);
    const listed = (await listSolverInventory(db.pool)).map((row) => [row.currency, row.balance, row.owed]);
    expect(listed).toEqual(
      expect.arrayContaining([
        [MINT, 5_000n, 300n],
        [MINT_OTHER_CASE, 0n, 40n],
      ]),
    );
    expect((await listHeldSolverCurrencies(db.pool)).get(SOLANA)).toEqual([MINT]);
  });
});
