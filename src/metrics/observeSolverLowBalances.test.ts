import { describe, expect, it } from "vitest";
import { parseConfig } from "../config.js";
import { createMetrics } from "./createMetrics.js";
import { observeSolverLowBalances } from "./observeSolverLowBalances.js";

describe("observeSolverLowBalances", () => {
  it("exports each configured threshold by chain and currency, parsed from SOLVER_LOW_BALANCES", async () => {
    const config = parseConfig({ SOLVER_LOW_BALANCES: "31339:ETH=1.5,8253038:BTC=0.02" });
    const metrics = createMetrics("worker");
    observeSolverLowBalances(metrics, config.SOLVER_LOW_BALANCES ?? {});
    const text = await metrics.registry.metrics();
    expect(text).toContain('crossfill_solver_low_balance_threshold{chain_id="31339",currency="ETH",role="worker"} 1.5');
    expect(text).toContain(
      'crossfill_solver_low_balance_threshold{chain_id="8253038",currency="BTC",role="worker"} 0.02',
    );
  });

  it("refuses an entry without its chain id or with an amount that is not a number", () => {
    expect(() => parseConfig({ SOLVER_LOW_BALANCES: "ETH=1" })).toThrow(
      /Invalid key in record\n  → at SOLVER_LOW_BALANCES.ETH/,
    );
    expect(() => parseConfig({ SOLVER_LOW_BALANCES: "31339:ETH=lots" })).toThrow(/decimal number/);
  });
});
