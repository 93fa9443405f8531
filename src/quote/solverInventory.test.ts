import { describe, expect, it, vi } from "vitest";
import { fakeChainAdapters } from "../../test/support/fakeChainAdapters.js";
import { evmFamily } from "../chains/evm/evmFamily.js";
import { svmFamily } from "../chains/svm/svmFamily.js";
import { createSolverInventory } from "./solverInventory.js";

const SOLVER = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const TOKEN = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
// Two valid Solana mints whose base58 differs only in the case of the last letter: different keys, different tokens.
const MINT = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const MINT_OTHER_CASE = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1V";

describe("createSolverInventory", () => {
  const adapters = (balance: () => bigint) =>
    fakeChainAdapters(() => ({ ...evmFamily, solverAddress: SOLVER, balanceOf: async () => balance() }));

  it("is the balance less what paid requests owe, never below zero", async () => {
    let owed = 300n;
    const inventory = createSolverInventory(
      adapters(() => 1_000n),
      { ttlMs: 0, owed: async () => owed },
    );
    expect(await inventory.available(31339, TOKEN)).toBe(700n);
    owed = 1_500n;
    expect(await inventory.available(31339, TOKEN)).toBe(0n);
  });

  it("serves one read per chain and currency for ttlMs, and reads again after a failure", async () => {
    const owed = vi.fn(async () => 0n);
    let fail = true;
    const inventory = createSolverInventory(
      adapters(() => {
        if (fail) throw new Error("node down");
        return 5n;
      }),
      { ttlMs: 60_000, owed },
    );
    await expect(inventory.available(31339, TOKEN)).rejects.toThrow("node down");
    fail = false;
    expect(await inventory.available(31339, TOKEN.toLowerCase())).toBe(5n);
    expect(await inventory.available(31339, TOKEN)).toBe(5n);
    expect(owed).toHaveBeenCalledTimes(2);
  });

  it("keys Solana mints case-sensitively: a mint differing only by case is read on its own", async () => {
    const held = new Map([
      [MINT, 7n],
      [MINT_OTHER_CASE, 0n],
    ]);
    const read = vi.fn(async (_owner: string, currency: string) => held.get(currency)!);
    const inventory = createSolverInventory(
      fakeChainAdapters(() => ({ ...svmFamily, solverAddress: "solver", balanceOf: read })),
      { ttlMs: 60_000, owed: async () => 0n },
    );
    expect(await inventory.available(792703809, MINT)).toBe(7n);
    expect(await inventory.available(792703809, MINT_OTHER_CASE)).toBe(0n);
    expect(read.mock.calls.map(([, currency]) => currency)).toEqual([MINT, MINT_OTHER_CASE]);
  });
});
