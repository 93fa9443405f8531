import { readFileSync } from "node:fs";
import { cpuSnapshot } from "./processCpu.js";

/**
 * Each process's peak resident set so far (the kernel's VmHWM, MB), by the same groups as the CPU table (this
 * process, the named children, anvil, Postgres, Redis, Ponder, others): the largest single process of each group and
 * how many it has. Read at the end of a run, it covers the whole run of every process still alive.
 */
export function peakRssMbByGroup(
  named: Record<string, number | undefined> = {},
): Record<string, { maxMb: number; processes: number }> {
  const groups: Record<string, { maxMb: number; processes: number }> = {};
  for (const [pid, { group }] of cpuSnapshot(named)) {
    if (group.startsWith("other:")) continue;
    let kb: number;
    try {
      const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmHWM:\s+(\d+) kB$/m);
      if (!line) continue;
      kb = Number(line[1]);
    } catch {
      continue;
    }
    const entry = (groups[group] ??= { maxMb: 0, processes: 0 });
    entry.maxMb = Math.max(entry.maxMb, Math.round(kb / 1024));
    entry.processes += 1;
  }
  return groups;
}
