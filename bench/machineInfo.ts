import { execFileSync } from "node:child_process";
import os from "node:os";

export type MachineInfo = {
  cores: number;
  cpuModel: string;
  totalMemoryGiB: number;
  node: string;
  platform: string;
  kernel: string;
  /** 1-minute load average when the benchmark started: anything else running on the machine shows here. */
  loadAverage1m: number;
  /** Idle share of the CPUs over 2 s just before the benchmark started (bench/quietMachine.ts). */
  idlePercentBeforeStart?: number;
};

/** The facts a benchmark number depends on: cores, CPU model, memory, Node and OS. */
export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    cores: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? "unknown",
    totalMemoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    kernel: os.release(),
    loadAverage1m: Math.round(os.loadavg()[0] * 100) / 100,
  };
}

/** `git rev-parse --short HEAD`, with "+dirty" when tracked files differ from it (results of uncommitted code). */
export function gitCommit(): string {
  try {
    const sha = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    const dirty =
      execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], { encoding: "utf8" }).trim() !== "";
    return dirty ? `${sha}+dirty` : sha;
  } catch {
    return "unknown";
  }
}
