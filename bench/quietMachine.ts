import { readFileSync } from "node:fs";

function cpuTimes(): { idle: number; total: number } {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0]; // "cpu  user nice system idle iowait irq softirq steal …"
  const fields = line.trim().split(/\s+/).slice(1).map(Number);
  return { idle: fields[3] + (fields[4] ?? 0), total: fields.reduce((sum, value) => sum + value, 0) };
}

async function idlePercent(windowMs: number): Promise<number> {
  const before = cpuTimes();
  await new Promise((resolve) => setTimeout(resolve, windowMs));
  const after = cpuTimes();
  const total = after.total - before.total;
  return total > 0 ? Math.round(((after.idle - before.idle) / total) * 1000) / 10 : 100;
}

/**
 * Benchmarks share the machine with whatever else runs on it. Waits (up to `maxWaitMs`) for a 2 s window in
 * which the CPUs are at least `minIdlePercent` idle, and returns the idle share of the last window, to be
 * recorded with the results. Without /proc it returns NaN at once.
 */
export async function waitForQuietMachine(
  options: { minIdlePercent?: number; maxWaitMs?: number; log?: (line: string) => void } = {},
): Promise<number> {
  const { minIdlePercent = 85, maxWaitMs = 60_000, log } = options;
  try {
    readFileSync("/proc/stat");
  } catch {
    return Number.NaN;
  }
  const deadline = Date.now() + maxWaitMs;
  let idle = await idlePercent(2_000);
  let warned = false;
  while (idle < minIdlePercent && Date.now() < deadline) {
    if (!warned)
      log?.(
        `the machine is only ${idle} % idle (other processes running); waiting up to ${maxWaitMs / 1000} s for ≥ ${minIdlePercent} %`,
      );
    warned = true;
    idle = await idlePercent(2_000);
  }
  if (idle < minIdlePercent) log?.(`still only ${idle} % idle: running anyway, the results record it`);
  return idle;
}
