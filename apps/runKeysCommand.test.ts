import { describe, expect, it } from "vitest";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { runKeysCommand } from "./runKeysCommand.js";

describe("crossfill keys", () => {
  const database = useMigratedDatabase();
  const serverKey = Buffer.alloc(32, 3);
  const run = (...argv: string[]) => runKeysCommand(database.pool, serverKey, argv);

  it("creates a key shown once, lists and revokes it, and never adds a key to an existing integrator by a name clash", async () => {
    const created = await run("create", "--name", "acme");
    expect(created).toMatch(/^key: +cf_[A-Za-z0-9_-]{43}$/m);
    expect(created).toMatch(/^integrator: acme$/m);
    await expect(run("create", "--name", "acme")).rejects.toThrow(
      /integrator "acme" already has keys: pass --integrator acme/,
    );
    expect(await run("create", "--name", "acme-mobile", "--integrator", "acme", "--elevated")).toMatch(
      /^integrator: acme$/m,
    );
    const id = /^id: +(\S+)$/m.exec(created)![1];
    const listed = await run("list");
    expect(listed.split("\n")).toHaveLength(2);
    expect(listed).not.toContain("cf_");
    expect(await run("revoke", id)).toBe(`revoked ${id}`);
    await expect(run("revoke", id)).rejects.toThrow(/no active key/);
    expect(await run("list")).toMatch(new RegExp(`^${id}\\tacme\\tacme\\tstandard\\trevoked `, "m"));
  });

  it("marks a key for management at creation or later, and unmarks it", async () => {
    const created = await run("create", "--name", "globex", "--manage");
    expect(created).toMatch(/^manages: +true$/m);
    const other = /^id: +(\S+)$/m.exec(await run("create", "--name", "globex-ci", "--integrator", "globex"))![1];
    expect(await run("list")).not.toMatch(new RegExp(`^${other}\\t.*manages keys`, "m"));
    expect(await run("manage", other)).toBe(`${other} manages its integrator's keys`);
    expect(await run("list")).toMatch(
      new RegExp(`^${other}\\tglobex-ci\\tglobex\\tstandard\\tmanages keys\\tactive`, "m"),
    );
    expect(await run("manage", other, "--off")).toBe(`${other} no longer manages keys`);
    expect(await run("list")).toMatch(new RegExp(`^${other}\\tglobex-ci\\tglobex\\tstandard\\tactive`, "m"));
    await expect(run("manage", "key_nope")).rejects.toThrow(/no key with id key_nope/);
  });

  it("sets a key's fixed-bps oracle pricing, lists it, ends it, and refuses bps out of 0-9999", async () => {
    const id = /^id: +(\S+)$/m.exec(await run("create", "--name", "initech"))![1];
    expect(await run("oracle-pricing", id, "25")).toBe(
      `${id} is quoted at the oracle rate less 25 bps (fixed-bps oracle pricing)`,
    );
    expect(await run("list")).toMatch(
      new RegExp(`^${id}\\tinitech\\tinitech\\tstandard\\toracle pricing 25 bps\\tactive`, "m"),
    );
    for (const bad of [["10000"], ["2.5"], ["abc"], []])
      await expect(run("oracle-pricing", id, ...bad)).rejects.toThrow(/bps from 0 to 9999/);
    await expect(run("oracle-pricing", id, "-1")).rejects.toThrow(/Unknown option '-1'/);
    await expect(run("oracle-pricing", id, "25", "--off")).rejects.toThrow(/bps from 0 to 9999/);
    await expect(run("oracle-pricing", "key_nope", "25")).rejects.toThrow(/no key with id key_nope/);
    expect(await run("oracle-pricing", id, "--off")).toBe(`${id} is priced normally`);
    expect(await run("list")).toMatch(new RegExp(`^${id}\\tinitech\\tinitech\\tstandard\\tactive`, "m"));
  });
});
