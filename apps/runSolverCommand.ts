import type pg from "pg";
import { failCommand } from "./failCommand.js";
import { listSolverInventory } from "../schema/solverBalances.js";
import { formatAmount } from "../src/domain/money.js";

export const SOLVER_USAGE = `usage: crossfill solver <command>
  balances   the solver's balance of each currency on each chain as the worker last read it, what paid and unfilled
             requests owe of it, and what is left for new quotes`;

/** The operator's view of the solver's inventory; returns the process exit code. */
export async function runSolverCommand(
  pool: pg.Pool,
  argv: string[],
  print: (line: string) => void,
  now = () => new Date(),
): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== "balances" || rest.length > 0) return failCommand(print, `unknown command\n${SOLVER_USAGE}`);
  const inventory = await listSolverInventory(pool);
  if (inventory.length === 0) print("no balances stored yet: a worker reads them when it starts (crossfill worker)");
  for (const row of inventory) {
    const amount = (value: bigint) => formatAmount(value, row.decimals);
    print(
      JSON.stringify({
        chainId: row.chainId,
        currency: row.symbol,
        address: row.currency,
        balance: amount(row.balance),
        owed: amount(row.owed),
        available: amount(row.balance > row.owed ? row.balance - row.owed : 0n),
        solver: row.solver,
        readAt: row.readAt.toISOString(),
        ageSeconds: Math.round((now().getTime() - row.readAt.getTime()) / 1000),
      }),
    );
  }
  return 0;
}
