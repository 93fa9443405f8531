import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export type RoleProcess = {
  role: string;
  pid: number;
  /** The whole role dies at once, children included, as a crashed container would: no shutdown runs. */
  kill(): Promise<void>;
  /** SIGTERM and wait: the role's own shutdown. */
  stop(): Promise<void>;
  /** Sends `signal` to the role's process group and returns at once. */
  signal(signal: NodeJS.Signals): void;
  /** The role's exit code once it has exited (null when a signal ended it). */
  exited: Promise<number | null>;
  output(): string;
};

/**
 * Runs `crossfill <role>` as its own process group with the given environment, resolved once it logs
 * `readyMessage`; crash tests kill and restart these.
 */
export async function startRoleProcess(
  args: string[],
  env: Record<string, string>,
  readyMessage: string,
  timeoutMs = 60_000,
): Promise<RoleProcess> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "apps/cli.ts", ...args], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/root", ...env },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.length > 200_000) log = log.slice(-100_000);
      if (log.includes(`"msg":"${readyMessage}"`)) resolve();
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) =>
      reject(new Error(`crossfill ${args.join(" ")} exited with ${code} before it was ready:\n${log.slice(-3000)}`)),
    );
    setTimeout(
      () => reject(new Error(`crossfill ${args.join(" ")} was not ready in ${timeoutMs} ms:\n${log.slice(-3000)}`)),
      timeoutMs,
    ).unref();
  });
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  try {
    await ready;
  } catch (error) {
    signalGroup("SIGKILL");
    throw error;
  }
  return {
    role: args.join(" "),
    pid: child.pid!,
    async kill() {
      signalGroup("SIGKILL");
      await exited;
    },
    async stop() {
      signalGroup("SIGTERM");
      const timer = setTimeout(() => signalGroup("SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
    },
    signal: signalGroup,
    exited,
    output: () => log,
  };
}
