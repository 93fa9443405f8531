import { describe, expect, it, vi } from "vitest";
import { createMetrics } from "./createMetrics.js";
import { observeSolverInventory } from "./observeSolverInventory.js";

describe("observeSolverInventory", () => {
  it("reads the inventory once per scrape: balance and owed in whole units, and the read's age", async () => {
    const metrics = createMetrics("worker");
    const list = vi.fn(async () => [
      {
        chainId: 31339,
        currency: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
        symbol: "USDC",
        decimals: 6,
        solver: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
        balance: 12_500_000n,
        owed: 2_000_000n,
        readAt: new Date(90_000),
      },
    ]);
    observeSolverInventory(metrics, list, () => 100_000);
    const text = await metrics.registry.metrics();
    expect(text).toContain('crossfill_solver_balance{chain_id="31339",currency="USDC",role="worker"} 12.5');
    expect(text).toContain('crossfill_solver_owed{chain_id="31339",currency="USDC",role="worker"} 2');
    expect(text).toContain('crossfill_solver_balance_age_seconds{chain_id="31339",currency="USDC",role="worker"} 10');
    expect(list).toHaveBeenCalledTimes(1);
  });
});
