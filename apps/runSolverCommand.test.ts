import { describe, expect, it } from "vitest";
import { saveSolverBalances } from "../schema/solverBalances.js";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { runSolverCommand } from "./runSolverCommand.js";

describe("crossfill solver", () => {
  const database = useMigratedDatabase();
  const run = async (...argv: string[]) => {
    const lines: string[] = [];
    const code = await runSolverCommand(
      database.pool,
      argv,
      (line) => lines.push(line),
      () => new Date(65_000),
    );
    return { code, lines };
  };

  it("says when nothing is stored yet, then prints each balance with what is owed and what is left", async () => {
    expect(await run("balances")).toEqual({
      code: 0,
      lines: ["no balances stored yet: a worker reads them when it starts (crossfill worker)"],
    });
    const ether = "0x0000000000000000000000000000000000000000";
    await saveSolverBalances(database.pool, [
      {
        chainId: 31339,
        currency: ether,
        symbol: "ETH",
        decimals: 18,
        solver: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
        balance: 2_500_000_000_000_000_000n,
        readAt: new Date(5_000),
      },
    ]);
    const paid = await insertTestRequest(database.pool, { destinationCurrency: ether, amountOut: 10n ** 18n });
    await database.pool.query("UPDATE crossfill.requests SET status = 'pending' WHERE id = $1", [paid.id]);
    const { code, lines } = await run("balances");
    expect(code).toBe(0);
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      {
        chainId: 31339,
        currency: "ETH",
        address: ether,
        balance: "2.5",
        owed: "1",
        available: "1.5",
        solver: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
        readAt: "1970-01-01T00:00:05.000Z",
        ageSeconds: 60,
      },
    ]);
  });

  it("answers an unknown command with the usage and exit code 1", async () => {
    const { code, lines } = await run("drain");
    expect(code).toBe(1);
    expect(lines[0]).toMatch(/^error: unknown command\nusage: crossfill solver/);
  });
});
