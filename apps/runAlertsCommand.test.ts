import { describe, expect, it } from "vitest";
import { raiseOperatorAlert } from "../schema/operatorAlerts.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { runAlertsCommand } from "./runAlertsCommand.js";

describe("crossfill alerts", () => {
  const database = useMigratedDatabase();
  const run = async (...argv: string[]) => {
    const lines: string[] = [];
    const code = await runAlertsCommand(database.pool, argv, (line) => lines.push(line));
    return { code, lines };
  };

  it("lists open alerts and resolves one with a note", async () => {
    await raiseOperatorAlert(database.pool, { kind: "REFUND_REVERTED", subject: "12", details: { txHash: "0xab" } });
    const listed = (await run("list")).lines.map((line) => JSON.parse(line));
    expect(listed).toMatchObject([{ kind: "REFUND_REVERTED", subject: "12", details: { txHash: "0xab" } }]);
    expect((await run("resolve", listed[0].id)).code).toBe(1);
    expect(await run("resolve", listed[0].id, "--note", "paid from treasury")).toEqual({
      code: 0,
      lines: [`alert ${listed[0].id} resolved`],
    });
    expect(await run("resolve", listed[0].id, "--note", "again")).toMatchObject({ code: 1 });
    expect((await run("list")).lines).toEqual([]);
    expect((await run("resolve", "abc", "--note", "x")).code).toBe(1);
    expect((await run("silence")).code).toBe(2);
  });
});
