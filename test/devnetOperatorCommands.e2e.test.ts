import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type NpmStart, readManifest, repoRoot, spawnNpmStart } from "./support/spawnNpmStart.js";

const run = promisify(execFile);

// Issue 29, defect 7: `crossfill keys|chains|sponsors|…` could not reach the devnet without DATABASE_URL.
describe("operator commands against npm start, without DATABASE_URL", () => {
  let started: NpmStart | undefined;
  beforeAll(async () => {
    started = await spawnNpmStart();
  });
  afterAll(() => started?.cleanUp());

  /** `npx crossfill …` from the clone, in a shell that set nothing but where the devnet keeps its manifest. */
  const crossfill = async (...argv: string[]) => {
    const result = await run("npx", ["crossfill", ...argv], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, CROSSFILL_DATA_DIR: started!.dataDir },
    }).catch((error: { code: number; stdout: string; stderr: string }) => error);
    return { code: "code" in result ? result.code : 0, output: `${result.stdout}${result.stderr}` };
  };

  it("reach the running devnet's database through its manifest, and say so when it is stopped", async () => {
    if (!started) throw new Error("npm start did not start");
    const manifest = readManifest(started);
    expect(manifest).toMatchObject({ databaseUrl: expect.stringMatching(/^postgres:\/\//) });

    const sponsors = await crossfill("sponsors", "list");
    expect(sponsors).toEqual({ code: 0, output: `${JSON.stringify({ integrator: "devnet", balanceUsd: "10000" })}\n` });
    const chains = await crossfill("chains", "list");
    expect(chains.code).toBe(0);
    expect(chains.output).toMatch(/31337/);
    expect(await crossfill("alerts", "list")).toEqual({ code: 0, output: "" });
    expect((await crossfill("refunds", "list")).code).toBe(0);

    // A key made here is sealed as the devnet's are: its webhook (a local receiver, as on the devnet) can be set.
    const created = await crossfill("keys", "create", "--name", "newcomer");
    expect(created.code).toBe(0);
    const id = /^id: +(\S+)$/m.exec(created.output)![1];
    expect((await crossfill("keys", "list")).output).toMatch(new RegExp(`^${id}\\tnewcomer\\t`, "m"));
    const webhook = await crossfill("webhooks", "set", "--key", id, "--url", "http://127.0.0.1:9/hook");
    expect(webhook.code).toBe(0);
    expect((await crossfill("webhooks", "show", "--key", id)).output).toContain("http://127.0.0.1:9/hook");

    await started.interrupt();
    expect(await crossfill("keys", "list")).toEqual({
      code: 1,
      output: expect.stringContaining(`the devnet of ${started.manifestPath} does not answer: is npm start running?`),
    });
  }, 300_000);
});
