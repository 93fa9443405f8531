import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type NpmStart, repoRoot, spawnNpmStart } from "./support/spawnNpmStart.js";

const run = promisify(execFile);

/** The README's walk-through block, as a user copies it. */
function walkthrough(): string {
  const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Walk-through"));
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error("README has no walk-through block");
  return block[1];
}

// Issue 29: the walk-through must pay its own quote, with commands that work against npm start as they are written.
describe("the README walk-through against npm start", () => {
  let started: NpmStart | undefined;
  const cwd = mkdtempSync(join(tmpdir(), "crossfill-walkthrough-"));
  beforeAll(async () => {
    started = await spawnNpmStart();
  });
  afterAll(async () => {
    await started?.cleanUp();
    rmSync(cwd, { recursive: true, force: true });
  });

  it("prints a readable banner, then quotes, pays and sees the request filled", async () => {
    if (!started) throw new Error("npm start did not start");
    const banner = started.output();
    expect(banner).toMatch(/Crossfill devnet is running, started in \d+\.\d s/);
    expect(banner).toMatch(/^ {2}explorer {3}http:\/\/127\.0\.0\.1:\d+\/$/m);
    expect(banner).toMatch(/bitcoin-regtest \(8253038, Bitcoin, Esplora\)/);
    expect(banner).toContain("npx tsx examples/bridge.ts");
    expect(banner).not.toMatch(/"privateKey"/);

    // Run from another folder than the clone's (quote.json lands there), the manifest found through the variable.
    const { stdout } = await run("bash", ["-euo", "pipefail", "-c", walkthrough()], {
      cwd,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        CROSSFILL_DATA_DIR: started.dataDir,
      },
      timeout: 120_000,
    });
    const lines = stdout.trim().split("\n");
    expect(JSON.parse(lines[0])).toMatchObject({ status: "waiting", originChainId: 31337, destinationChainId: 31338 });
    expect(JSON.parse(lines[1])).toMatchObject({ result: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(lines.at(-2)).toBe("status: success");
    const request = lines.at(-1)!.split("/").at(-1)!;
    expect(lines.at(-1)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/explorer\/#\/request\/0x[0-9a-f]{64}$/);

    // Quoted with the manifest's key: the request is the devnet integrator's, which the dashboard lists.
    const manifest = JSON.parse(readFileSync(started.manifestPath, "utf8")) as { graphqlUrl: string; apiKey: string };
    const listed = await fetch(manifest.graphqlUrl, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": manifest.apiKey },
      body: JSON.stringify({ query: "{ requests(filter: { myIntegrator: true }) { edges { node { id } } } }" }),
    });
    const body = (await listed.json()) as { data: { requests: { edges: Array<{ node: { id: string } }> } } };
    expect(body.data.requests.edges.map(({ node }) => node.id)).toEqual([request]);
  }, 300_000);
});
