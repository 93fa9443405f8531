import { describe, expect, it } from "vitest";
import { recordChainHead } from "../schema/chainHeads.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { runChainsCommand } from "./runChainsCommand.js";

describe("crossfill chains", () => {
  const database = useMigratedDatabase();
  const run = async (...argv: string[]) => {
    const lines: string[] = [];
    const code = await runChainsCommand(database.pool, argv, (line) => lines.push(line));
    return { code, lines };
  };

  it("sets and lists switches with the heads the indexers saw, keeping what a command does not change", async () => {
    expect((await run("disable", "31338", "--reason", "RPC down")).code).toBe(0);
    expect((await run("limit", "31338", "1000.50")).code).toBe(0);
    await recordChainHead(database.pool, 31339, 42n);
    const listed = (await run("list")).lines.map((line) => JSON.parse(line));
    expect(listed).toEqual([
      expect.objectContaining({
        chainId: 31338,
        disabled: true,
        partialDisableLimitUsd: "1000.50",
        reason: "RPC down",
      }),
      expect.objectContaining({
        chainId: 31339,
        disabled: false,
        head: expect.objectContaining({ blockNumber: "42" }),
      }),
    ]);
    expect((await run("enable", "31338")).code).toBe(0);
    const [enabled] = (await run("list")).lines.map((line) => JSON.parse(line));
    expect(enabled).toMatchObject({ chainId: 31338, disabled: false, partialDisableLimitUsd: "1000.50", reason: null });
  });

  it("refuses a bad chain id, limit or command with its usage and exit code 2, changing nothing", async () => {
    for (const argv of [
      ["disable"],
      ["disable", "abc"],
      ["limit", "1", "0"],
      ["limit", "1", "1e9"],
      ["pause", "1"],
      ["enable", "1", "--force"],
    ]) {
      const { code, lines } = await run(...argv);
      expect(code, argv.join(" ")).toBe(2);
      expect(lines.join("\n")).toMatch(/usage: crossfill chains/);
    }
    expect(
      (await database.pool.query("SELECT count(*)::int AS n FROM crossfill.chain_switches WHERE chain_id = 1")).rows[0]
        .n,
    ).toBe(0);
  });
});
