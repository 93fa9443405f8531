/**
 * Runs the EVM indexer (`ponder start`, root indexers/evm) as a child process and resolves once Ponder answers
 * `/ready` (backfill done, views published in the views schema) and has indexed every chain up to the head it had
 * when `/ready` answered.
 *
 * Why the second wait: on every restart Ponder's crash recovery deletes all rows newer than its finalized block
 * (30 blocks on unknown chain ids, all of a young devnet) and indexes those blocks again in real time only after
 * `/ready`. Until then the views lack those facts; the rows come back with the same ids and values.
 *
 * Ponder's `--schema` is derived from a hash of everything that shapes its tables and their contents (config,
 * tables, handlers, ABIs, chains file): Ponder's own build id hashes only `ponder.schema.ts`'s text, not the
 * files it re-exports, so a fixed schema name would break crash recovery after a change (GOTCHAS.md).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { isEvmChain, loadChainsFile } from "../../src/chains/chainConfig.js";

/** indexers/evm */
export const evmIndexerRoot = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(evmIndexerRoot, "../..");
const ponderBin = path.join(repoRoot, "node_modules/ponder/dist/esm/bin/ponder.js");

export const defaultViewsSchema = "crossfill_onchain";

export type PonderLogLevel = "silent" | "fatal" | "error" | "warn" | "info" | "debug" | "trace";

export interface StartEvmIndexerOptions {
  /** Postgres connection string (the database Ponder writes its build schema, `ponder_sync` and the views to). */
  databaseUrl: string;
  /** Path of the chains file (`{chains: [...]}`, src/chains/chainConfig.ts). */
  chainsFile: string;
  /** Port of Ponder's HTTP server (/health, /ready, /status, /metrics). */
  port: number;
  /** Address that server binds; default 127.0.0.1 (use 0.0.0.0 to expose /metrics). */
  hostname?: string;
  /** Stable schema where Ponder publishes plain views of its tables once the backfill is done. */
  viewsSchema?: string;
  /** Ponder's log level; default "info". */
  logLevel?: PonderLogLevel;
  /** Receives each line Ponder writes (JSON log lines); the last 100 are kept for error messages regardless. */
  onLog?: (line: string) => void;
  /** Called when the Ponder process exits; `expected` is true when stop() asked for it. */
  onExit?: (exit: { code: number | null; signal: NodeJS.Signals | null; expected: boolean }) => void;
  /**
   * Ponder in a process group of its own (npm start: a terminal's Ctrl-C then reaches only the service, which stops
   * the indexer after the worker). Off for the indexer role alone, so a supervisor that kills the role's group (a
   * crash, `kill -9 -pid`) takes Ponder with it instead of leaving it holding the port.
   */
  ownProcessGroup?: boolean;
  /** How long to wait for `/ready` and the catch-up to the chains' heads; default 120 s. */
  readyTimeoutMs?: number;
}

export interface EvmIndexer {
  /** Ponder's build schema (tables live here; read them only through `viewsSchema`). */
  schema: string;
  /** The stable views schema, e.g. `crossfill_onchain.deposit`. */
  viewsSchema: string;
  /** The child's pid. */
  pid: number;
  /** The block each chain is indexed up to now (chain id → block number), from Ponder's `/status`. */
  heads(): Promise<Map<number, number>>;
  /** SIGTERM, wait for exit (SIGKILL after 10 s). Idempotent. */
  stop(): Promise<void>;
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((relative) => path.join(dir, relative))
    .filter((file) => statSync(file).isFile());
}

/**
 * Ponder's `--schema` for this build: `ponder_<12 hex>` of sha256 over the config, the tables, the handlers, the
 * ABIs, the chain config parser, the Ponder version and the chains file contents. Same code and chains → same
 * schema (Ponder resumes from its checkpoint); anything else → a fresh schema, indexed from the start blocks.
 */
export function indexerBuildSchema(chainsFile: string): string {
  const sources = [
    "ponder.config.ts",
    "schema/onchain.ts",
    "contracts/abis.ts",
    "src/chains/chainConfig.ts",
    "indexers/evm/ponder.config.ts",
    "indexers/evm/ponder.schema.ts",
    ...filesUnder(path.join(evmIndexerRoot, "src")).map((file) => path.relative(repoRoot, file)),
  ]
    .map((file) => file.split(path.sep).join("/"))
    .sort();
  const hash = createHash("sha256");
  const ponderPackage = JSON.parse(readFileSync(path.join(repoRoot, "node_modules/ponder/package.json"), "utf8"));
  hash.update(`ponder@${ponderPackage.version}\0`);
  for (const file of sources) {
    const absolute = path.join(repoRoot, file);
    hash.update(`${file}\0`);
    hash.update(existsSync(absolute) ? readFileSync(absolute) : "<missing>");
    hash.update("\0");
  }
  hash.update("chains\0");
  hash.update(readFileSync(chainsFile));
  return `ponder_${hash.digest("hex").slice(0, 12)}`;
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * A killed Ponder keeps its lock for up to ~25 s (heartbeat timeout), so an immediate restart would wait for it.
 * Only our own computed schema is touched, only when its meta table exists, and only when no Ponder process is
 * connected for it (Ponder names its connections `<schema>_internal`, `_user`, `_readonly`): a live indexer keeps
 * its lock, and the new one then waits and fails with Ponder's own message.
 */
async function clearStaleLock(databaseUrl: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ meta: string | null }>("SELECT to_regclass($1) AS meta", [
      `${quoteIdent(schema)}._ponder_meta`,
    ]);
    if (!rows[0]?.meta) return;
    // A just-killed process's sessions linger for a moment; a live one's stay.
    for (let attempt = 0; ; attempt++) {
      const { rows: live } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = ANY($1::text[])`,
        [[`${schema}_internal`, `${schema}_user`, `${schema}_readonly`]],
      );
      if (live[0]!.n === 0) break;
      if (attempt >= 20) return;
      await sleep(100);
    }
    await client.query(
      `UPDATE ${quoteIdent(schema)}._ponder_meta SET value = jsonb_set(value, '{is_locked}', '0') WHERE key = 'app'`,
    );
  } finally {
    await client.end();
  }
}

async function rpcBlockNumber(rpcUrl: string): Promise<number> {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
    signal: AbortSignal.timeout(5_000),
  });
  const body = (await response.json()) as { result?: string; error?: { message: string } };
  if (!body.result) throw new Error(`eth_blockNumber on ${rpcUrl} failed: ${body.error?.message ?? response.status}`);
  return Number(BigInt(body.result));
}

/** The block each chain is indexed up to, from Ponder's `/status`. */
async function indexedHeads(baseUrl: string): Promise<Map<number, number>> {
  const response = await fetch(`${baseUrl}/status`, { signal: AbortSignal.timeout(1_000) });
  if (!response.ok) throw new Error(`ponder /status answered ${response.status}`);
  const status = (await response.json()) as Record<string, { id: number; block: { number: number } }>;
  return new Map(Object.values(status).map((s) => [s.id, s.block.number]));
}

/**
 * Waits until Ponder's `/status` shows every EVM chain (the ones it indexes) at (or past) the head each chain has now. A chain whose RPC does
 * not answer here is not waited for (Ponder retries it on its own).
 */
async function waitForHeads(chainsFile: string, baseUrl: string, deadline: number): Promise<void> {
  const chains = loadChainsFile(chainsFile).filter(isEvmChain);
  const heads = new Map<number, number>();
  await Promise.all(
    chains.map(async (chain) => {
      const head = await rpcBlockNumber(chain.rpcUrl).catch(() => undefined);
      if (head !== undefined) heads.set(chain.id, head);
    }),
  );
  let behind = "";
  while (Date.now() <= deadline) {
    try {
      const indexed = await indexedHeads(baseUrl);
      const lagging = [...heads].filter(([id, head]) => (indexed.get(id) ?? -1) < head);
      if (lagging.length === 0) return;
      behind = lagging.map(([id, head]) => `chain ${id} at ${indexed.get(id) ?? "none"} of ${head}`).join(", ");
    } catch (error) {
      behind = `/status failed: ${(error as Error).message}`;
    }
    await sleep(50);
  }
  throw new Error(`ponder was ready but did not reach the chains' heads in time (${behind})`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Something else answering on the port would make its `/ready` look like ours. */
function assertPortFree(port: number, hostname: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          `cannot start the EVM indexer: port ${port} on ${hostname} is not free (${error.code ?? error.message})`,
        ),
      ),
    );
    server.listen(port, hostname, () => server.close(() => resolve()));
  });
}

export async function startEvmIndexer(options: StartEvmIndexerOptions): Promise<EvmIndexer> {
  const viewsSchema = options.viewsSchema ?? defaultViewsSchema;
  const chainsFile = path.resolve(options.chainsFile);
  const schema = indexerBuildSchema(chainsFile);
  const readyTimeoutMs = options.readyTimeoutMs ?? 120_000;
  const hostname = options.hostname ?? "127.0.0.1";
  const localHost = hostname === "0.0.0.0" || hostname === "::" ? "127.0.0.1" : hostname;
  const baseUrl = `http://${localHost.includes(":") ? `[${localHost}]` : localHost}:${options.port}`;

  await assertPortFree(options.port, hostname);
  await clearStaleLock(options.databaseUrl, schema);

  const env: NodeJS.ProcessEnv = {
    DATABASE_URL: options.databaseUrl,
    CROSSFILL_CHAINS_FILE: chainsFile,
    // No internet here, and nothing to report.
    PONDER_TELEMETRY_DISABLED: "true",
  };
  // Only what a Node process needs to run; notably not PORT or DATABASE_SCHEMA, which Ponder would obey.
  for (const name of ["PATH", "HOME", "TMPDIR", "LANG", "TZ", "NODE_OPTIONS", "NODE_EXTRA_CA_CERTS"]) {
    if (process.env[name] !== undefined) env[name] = process.env[name];
  }

  const args = [
    ponderBin,
    "--root",
    evmIndexerRoot,
    "--log-format",
    "json",
    "--log-level",
    options.logLevel ?? "info",
    "start",
    "--schema",
    schema,
    "--views-schema",
    viewsSchema,
    "--port",
    String(options.port),
    "--hostname",
    hostname,
  ];
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: repoRoot,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: options.ownProcessGroup ?? false,
  });

  const tail: string[] = [];
  const onLine = (line: string) => {
    if (line.trim() === "") return;
    tail.push(line);
    if (tail.length > 100) tail.shift();
    options.onLog?.(line);
  };
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = "";
    stream?.setEncoding("utf8");
    stream?.on("data", (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      lines.forEach(onLine);
    });
    stream?.on("end", () => {
      if (buffered) onLine(buffered);
      buffered = "";
    });
  }
  const lastLines = (n = 30) => tail.slice(-n).join("\n");

  let stopping = false;
  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exitPromise = new Promise<void>((resolve) => {
    child.on("exit", (code, signal) => {
      exited = { code, signal };
      options.onExit?.({ code, signal, expected: stopping });
      resolve();
    });
  });
  const spawnError = new Promise<Error>((resolve) => child.on("error", resolve));
  // Out of our process group, it no longer dies with us: a process that exits without stopping it kills it.
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  void exitPromise.then(() => process.off("exit", killOnExit));

  let stopPromise: Promise<void> | undefined;
  const stop = () => {
    stopPromise ??= (async () => {
      stopping = true;
      if (exited) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => {
        if (!exited) child.kill("SIGKILL");
      }, 10_000);
      await exitPromise;
      clearTimeout(timer);
    })();
    return stopPromise;
  };

  const readyUrl = `${baseUrl}/ready`;
  const deadline = Date.now() + readyTimeoutMs;
  let failure: Error | undefined;
  let spawnFailure: Error | undefined;
  void spawnError.then((error) => (spawnFailure = error));
  for (;;) {
    if (spawnFailure) {
      failure = new Error(`could not start ponder: ${spawnFailure.message}`);
      break;
    }
    if (exited) {
      failure = new Error(
        `ponder exited before it was ready (code ${exited.code}, signal ${exited.signal}); last output:\n${lastLines()}`,
      );
      break;
    }
    if (Date.now() > deadline) {
      failure = new Error(
        `ponder did not answer 200 on ${readyUrl} within ${readyTimeoutMs} ms (schema ${schema}); last output:\n${lastLines()}`,
      );
      break;
    }
    try {
      const response = await fetch(readyUrl, { signal: AbortSignal.timeout(1_000) });
      await response.arrayBuffer();
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  if (!failure) {
    try {
      await waitForHeads(chainsFile, baseUrl, deadline);
    } catch (error) {
      failure = new Error(`${(error as Error).message}; last output:\n${lastLines()}`);
    }
  }
  if (failure) {
    await stop();
    throw failure;
  }

  return { schema, viewsSchema, pid: child.pid!, heads: () => indexedHeads(baseUrl), stop };
}
