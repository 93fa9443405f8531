import { readFileSync, readdirSync } from "node:fs";

/** CPU time (user + system, ms) per process group, from /proc; empty where /proc does not exist. */
export type CpuSnapshot = Map<number, { group: string; ms: number }>;

const TICK_MS = 10; // USER_HZ is 100 on Linux for every architecture Node supports

function readProc(pid: number): { comm: string; ms: number; cmdline: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const close = stat.lastIndexOf(")");
    const comm = stat.slice(stat.indexOf("(") + 1, close);
    const fields = stat.slice(close + 2).split(" ");
    // fields[0] is the state (field 3); utime and stime are fields 14 and 15.
    const ms = (Number(fields[11]) + Number(fields[12])) * TICK_MS;
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
    return { comm, ms, cmdline };
  } catch {
    return undefined;
  }
}

/**
 * CPU used so far by every process, grouped by what it is: the given named processes (this one too, when named),
 * this process (the server in-process), anvil, Postgres, Redis, Ponder, and anything else by its command name
 * ("other: …").
 */
export function cpuSnapshot(named: Record<string, number | undefined> = {}): CpuSnapshot {
  const byPid = new Map(Object.entries(named).flatMap(([group, pid]) => (pid ? [[pid, group] as const] : [])));
  const snapshot: CpuSnapshot = new Map();
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return snapshot;
  }
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const proc = readProc(pid);
    if (!proc) continue;
    const group =
      byPid.get(pid) ??
      (pid === process.pid
        ? "bench process (API, worker, load orchestration)"
        : proc.comm === "anvil"
          ? "anvil"
          : proc.comm === "postgres"
            ? "postgres"
            : proc.comm.startsWith("redis")
              ? "redis"
              : proc.cmdline.includes("ponder")
                ? "ponder"
                : `other: ${proc.comm}`);
    snapshot.set(pid, { group, ms: proc.ms });
  }
  return snapshot;
}

/**
 * CPU ms per group between two snapshots (processes started in between count from zero), largest first;
 * groups under 1 % of the total are summed into "other (small)".
 */
export function cpuBetween(before: CpuSnapshot, after: CpuSnapshot): Record<string, number> {
  const totals = new Map<string, number>();
  for (const [pid, { group, ms }] of after) {
    const used = ms - (before.get(pid)?.ms ?? 0);
    if (used > 0) totals.set(group, (totals.get(group) ?? 0) + used);
  }
  const all = [...totals.values()].reduce((sum, ms) => sum + ms, 0);
  const result: Record<string, number> = {};
  let small = 0;
  for (const [group, ms] of [...totals].sort((a, b) => b[1] - a[1])) {
    if (ms >= all / 100) result[group] = ms;
    else small += ms;
  }
  if (small > 0) result["other (small)"] = small;
  return result;
}
