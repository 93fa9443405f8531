import { readFileSync, readdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type NpmStart, spawnNpmStart } from "./support/spawnNpmStart.js";

type Proc = { pid: number; ppid: number; group: number; started: string; command: string };

function readProc(pid: number): Proc | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields[0] === "Z") return undefined; // a zombie has stopped
    const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
    return { pid, ppid: Number(fields[1]), group: Number(fields[2]), started: fields[19], command };
  } catch {
    return undefined;
  }
}

/** Every living process below `root`, whatever its group. */
function descendants(root: number): Proc[] {
  const all = readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readProc(Number(name)))
    .filter((proc): proc is Proc => proc !== undefined);
  const found: Proc[] = [];
  const parents = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const proc of all) {
      if (parents.has(proc.ppid) && !parents.has(proc.pid)) {
        parents.add(proc.pid);
        found.push(proc);
        grew = true;
      }
    }
  }
  return found;
}

/** Still the same process: a pid reused since has another start time. */
const stillRunning = (proc: Proc) => readProc(proc.pid)?.started === proc.started;

// Issue 29, defect 5: Ctrl-C signalled embedded Postgres, Ponder and anvil along with the service, which then printed
// warning stack traces and never said it had stopped.
describe("Ctrl-C on npm start", () => {
  let started: NpmStart | undefined;
  beforeAll(async () => {
    started = await spawnNpmStart();
  });
  afterAll(() => started?.cleanUp());

  it("stops the API, the worker, the indexers, the chains, the price service and Postgres in that order, and nothing is left", async () => {
    if (!started) throw new Error("npm start did not start");
    const group = started.child.pid!;
    const children = descendants(group);
    const services = children.filter((proc) => proc.group !== group);
    // The chains, the indexer and the database run outside the terminal's group, so Ctrl-C reaches only the service.
    // the four devnet EVM chains (31337, 31338, 31339 and 999)
    expect(services.filter((proc) => /anvil/.test(proc.command))).toHaveLength(4);
    expect(services.filter((proc) => /ponder/.test(proc.command))).toHaveLength(1);
    expect(services.filter((proc) => /postgres/.test(proc.command)).length).toBeGreaterThan(0);
    const before = started.output().length;

    await started.interrupt();
    const output = started.output().slice(before);

    const deadline = Date.now() + 10_000;
    while (children.some(stillRunning) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(children.filter(stillRunning).map((proc) => proc.command)).toEqual([]);

    const order = [
      "api",
      "worker",
      "indexers",
      "devnet hypevm",
      "devnet svm",
      "devnet bvm",
      // started before the chains, whose aggregators follow its prices
      "devnet evm",
      "devnet hermes",
      "embedded postgres",
    ].map((name) => output.indexOf(`  ${name} stopped\n`));
    expect({ order, output }).toEqual({ order: [...order].sort((a, b) => a - b), output });
    expect({ missing: order.includes(-1), output }).toEqual({ missing: false, output });
    expect(output.trimEnd().split("\n").at(-1)).toBe("Crossfill stopped.");
    // No warnings with stack traces from connections the database ended under the service.
    expect(output).not.toMatch(/^\s+at /m);
    expect(output).not.toMatch(/"level":(40|50)/);
  }, 120_000);
});
