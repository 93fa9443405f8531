import { describe, expect, it } from "vitest";
import { findApiKeyByHash } from "../schema/apiKeys.js";
import { sponsorBalance } from "../schema/sponsorLedger.js";
import { createApiKey } from "../src/apiKeys/createApiKey.js";
import { hashApiKey } from "../src/apiKeys/hashApiKey.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { runSponsorsCommand } from "./runSponsorsCommand.js";

describe("crossfill sponsors", () => {
  const database = useMigratedDatabase();
  const run = async (...argv: string[]) => {
    const lines: string[] = [];
    const code = await runSponsorsCommand(database.pool, argv, (line) => lines.push(line));
    return { code, lines };
  };

  it("funds, withdraws and lists sponsorship balances in USD micro-units", async () => {
    expect(await run("fund", "acme", "250.5")).toEqual({
      code: 0,
      lines: ["sponsor acme: +250.5 USD, balance 250.5 USD"],
    });
    expect((await run("withdraw", "acme", "0.000001")).lines).toEqual([
      "sponsor acme: -0.000001 USD, balance 250.499999 USD",
    ]);
    expect(await sponsorBalance(database.pool, "acme")).toBe(250_499_999n);
    await run("fund", "beta", "1");
    expect((await run("list")).lines.map((line) => JSON.parse(line))).toEqual([
      { integrator: "acme", balanceUsd: "250.499999" },
      { integrator: "beta", balanceUsd: "1" },
    ]);
  });

  it("refuses amounts that are not positive USD with at most 6 decimals, and unknown commands", async () => {
    for (const usd of ["-1", "0", "1.0000001", "1e3", "abc"]) expect((await run("fund", "acme", usd)).code).toBe(1);
    expect((await run("fund", "acme")).code).toBe(2);
    expect((await run("drain")).code).toBe(2);
    expect(await sponsorBalance(database.pool, "nobody")).toBe(0n);
  });

  it("allows a key to sponsor fees and stops it; keys start without", async () => {
    const key = await createApiKey(database.pool, Buffer.alloc(32, 1), { name: "acme-key", integrator: "acme" });
    const sponsors = async () => (await findApiKeyByHash(database.pool, hashApiKey(key.key)))?.sponsors;
    expect(await sponsors()).toBe(false);
    expect(await run("allow", key.id)).toEqual({ code: 0, lines: [`${key.id} may sponsor fees (subsidizeFees)`] });
    expect(await sponsors()).toBe(true);
    expect((await run("allow", key.id, "--off")).lines).toEqual([`${key.id} may no longer sponsor fees`]);
    expect(await sponsors()).toBe(false);
    expect((await run("allow", "key_nope")).code).toBe(1);
    expect((await run("allow")).code).toBe(2);
  });
});
