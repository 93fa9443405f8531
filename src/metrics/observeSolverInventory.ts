import { Gauge } from "prom-client";
import type { SolverInventoryRow } from "../../schema/solverBalances.js";
import type { Metrics } from "./createMetrics.js";

/** A smallest-unit amount in whole units, as a gauge holds it (a float: precise enough to watch, never to pay). */
const units = (amount: bigint, decimals: number) => Number(amount) / 10 ** decimals;

/**
 * The solver's inventory as the worker last stored it, read once per scrape: each currency's balance, what open
 * requests owe of it and how old the read is, by chain id and symbol.
 */
export function observeSolverInventory(
  metrics: Metrics,
  listInventory: () => Promise<SolverInventoryRow[]>,
  now = Date.now,
): void {
  let read: Promise<SolverInventoryRow[]> | undefined;
  // The gauges of one scrape share one read.
  const inventory = () => (read ??= listInventory().finally(() => setTimeout(() => (read = undefined), 0)));
  const gauge = (name: string, help: string, value: (row: SolverInventoryRow) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ["chain_id", "currency"] as const,
      registers: [metrics.registry],
      async collect() {
        this.reset();
        for (const row of await inventory().catch(() => []))
          this.set({ chain_id: String(row.chainId), currency: row.symbol }, value(row));
      },
    });
  gauge("crossfill_solver_balance", "The solver's balance in whole units, by chain and currency symbol", (row) =>
    units(row.balance, row.decimals),
  );
  gauge("crossfill_solver_owed", "What paid, unfilled requests owe of it, in whole units", (row) =>
    units(row.owed, row.decimals),
  );
  gauge(
    "crossfill_solver_balance_age_seconds",
    "Seconds since the worker last read that balance from the chain",
    (row) => (now() - row.readAt.getTime()) / 1000,
  );
}
