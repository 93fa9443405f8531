import { describe, expect, it, vi } from "vitest";
import { fakeChainAdapters } from "../../test/support/fakeChainAdapters.js";
import { createSolverInventory } from "./solverInventory.js";

const SOLVER = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

describe("createSolverInventory", () => {
  const adapters = (balance: () => bigint) =>
    fakeChainAdapters(() => ({ solverAddress: SOLVER, balanceOf: async () => balance() }));

  it("is the balance less what paid requests owe, never below zero", async () => {
    let owed = 300n;
    const inventory = createSolverInventory(
      adapters(() => 1_000n),
      { ttlMs: 0, owed: async () => owed },
    );
    expect(await inventory.available(31339, "0xA")).toBe(700n);
    owed = 1_500n;
    expect(await inventory.available(31339, "0xA")).toBe(0n);
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
    await expect(inventory.available(31339, "0xA")).rejects.toThrow("node down");
    fail = false;
    expect(await inventory.available(31339, "0xa")).toBe(5n);
    expect(await inventory.available(31339, "0xA")).toBe(5n);
    expect(owed).toHaveBeenCalledTimes(2);
  });
});
