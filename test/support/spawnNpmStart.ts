import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { portRunBelowEphemeralRange } from "./portRunBelowEphemeralRange.js";

export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

export type NpmStart = {
  child: ChildProcess;
  /** Its data folder: manifest.json and the embedded Postgres' cluster. */
  dataDir: string;
  manifestPath: string;
  /** stdout and stderr so far, interleaved as they arrived. */
  output(): string;
  /** Ctrl-C as a terminal sends it (SIGINT to the whole process group); resolves with the exit code once every
   * output stream has closed. */
  interrupt(): Promise<number | null>;
  /** Everything stopped and the data folder removed (SIGKILL to the group if Ctrl-C did not end it). */
  cleanUp(): Promise<void>;
};

/**
 * `npm start` as a user runs it from a terminal: in a process group of its own (the terminal's), on ports and a data
 * folder of its own so parallel tests do not collide, and resolved once the devnet banner is printed.
 */
export async function spawnNpmStart(env: Record<string, string> = {}, readyTimeoutMs = 150_000): Promise<NpmStart> {
  const dataDir = mkdtempSync(join(tmpdir(), "crossfill-npm-start-"));
  const child = spawn("npm", ["start"], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/root",
      // Bound only once the devnets are up, so below the ports the OS hands out meanwhile.
      PORT: String(await portRunBelowEphemeralRange()),
      INDEXER_PORT: String(await portRunBelowEphemeralRange()),
      DEVNET_POSTGRES_PORT: String(await portRunBelowEphemeralRange()),
      // One port per default devnet chain (31337, 31338, 31339, 999).
      DEVNET_BASE_PORT: String(await portRunBelowEphemeralRange(4)),
      CROSSFILL_DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const closed = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  let done = false;
  void closed.then(() => (done = true));
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // the group is gone
    }
  };
  const started: NpmStart = {
    child,
    dataDir,
    manifestPath: join(dataDir, "manifest.json"),
    output: () => output,
    interrupt: () => {
      signalGroup("SIGINT");
      return closed;
    },
    cleanUp: async () => {
      if (!done) {
        signalGroup("SIGINT");
        const timer = setTimeout(() => signalGroup("SIGKILL"), 60_000);
        await closed;
        clearTimeout(timer);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  const deadline = Date.now() + readyTimeoutMs;
  while (!output.includes("Ctrl-C stops everything")) {
    if (done || Date.now() > deadline) {
      await started.cleanUp();
      throw new Error(`npm start did not start within ${readyTimeoutMs} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return started;
}

/** The manifest the running devnet wrote. */
export function readManifest(started: NpmStart): Record<string, unknown> {
  return JSON.parse(readFileSync(started.manifestPath, "utf8")) as Record<string, unknown>;
}
