import { TEST_RATE_LIMITS } from "./testRateLimits.js";
import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { type Address, parseAbiItem } from "viem";
import { bitcoinFactories } from "../../apps/families/bitcoinFactories.js";
import { evmFactories } from "../../apps/families/evmFactories.js";
import type { DevnetBitcoin } from "../../devnet/bitcoin/startDevnetBitcoin.js";
import type { DevnetChains } from "../../devnet/startDevnetChains.js";
import { startFamilyDevnet, testDevnetConfig } from "./startFamilyDevnet.js";
import { portRunBelowEphemeralRange } from "./portRunBelowEphemeralRange.js";
import { migrate } from "../../schema/migrate.js";
import { createEvmChainClient } from "../../src/chains/evm/evmChainClient.js";
import { canTransition } from "../../src/domain/requestStatus.js";
import { type RoleProcess, startRoleProcess } from "./startRoleProcess.js";
import { TEST_PRICES_ENV } from "./startTestStack.js";
import { createTestDatabase } from "./testDatabase.js";
import { solverKeyEnv } from "./solverKeyEnv.js";

export type Role = "api" | "worker" | "indexer";
/** The roles a cluster starts: the crashable ones and, with `bitcoinPoller`, the Bitcoin poller. */
type StartedRole = Role | "poller";
const READY: Record<StartedRole, { args: string[]; message: string }> = {
  api: { args: ["api"], message: "api listening" },
  worker: { args: ["worker"], message: "worker started" },
  indexer: { args: ["indexer", "evm"], message: "indexer ready" },
  poller: { args: ["indexer", "bitcoin"], message: "bitcoin pollers started" },
};

export type CrashCluster = {
  devnet: DevnetChains;
  /** The cluster's own database, for connections of a caller's own (the pool is shared). */
  databaseUrl: string;
  pool: pg.Pool;
  /** The roles' Redis and key prefix (QUEUE_PREFIX), to read their queues. */
  redisUrl: string;
  queuePrefix: string;
  /** The first gateway's URL; `apiUrls` lists every gateway. */
  apiUrl: string;
  apiUrls: string[];
  /** The roles' API_KEY_ENCRYPTION_KEY: keys created with it get their webhooks signed by the worker. */
  serverKey: Buffer;
  /** Each worker's health port (`/healthz`, `/readyz`, `/metrics`), in replica order. */
  workerHealthUrls: string[];
  /** With `bitcoinPoller`: the devnet Bitcoin (mined on demand) and its poller role's health port. */
  bitcoin?: { devnet: DevnetBitcoin; chainId: number; healthUrl: string };
  /** Each running role process's pid, keyed `role#n` (the n-th replica). */
  pids(): Record<string, number>;
  /** SIGKILLs a role's (first) process group, starts it again and resolves once it is ready (ms it took). */
  crash(role: Role): Promise<number>;
  stop(): Promise<void>;
};

/**
 * Crossfill as separate processes (`crossfill api`, `worker`, `indexer evm`) on devnet chains, a fresh
 * database and Redis, so a test can kill any of them at any moment, as production would see it; with several
 * gateways and workers, it is the scale-out deployment of docs/OPERATIONS.md.
 */
export async function startCrashCluster(
  options: {
    apis?: number;
    workers?: number;
    /** The EVM head watcher (on by default, as in production). */
    depositWatcher?: boolean;
    /** Adds the devnet Bitcoin and `crossfill indexer bitcoin`, a poller role of its own (its chains file has only it). */
    bitcoinPoller?: boolean;
  } = {},
): Promise<CrashCluster> {
  const db = await createTestDatabase("crossfill_crash");
  const { devnet } = await startFamilyDevnet(
    evmFactories,
    testDevnetConfig({ DEVNET_CHAIN_IDS: "31338,31339", DEVNET_BLOCK_TIME: "1" }),
  );
  const pool = new pg.Pool({ connectionString: db.url, max: 4 });
  await migrate(pool);
  const chainsFile = path.join(mkdtempSync(path.join(tmpdir(), "crossfill-crash-")), "chains.json");
  writeFileSync(chainsFile, JSON.stringify({ chains: devnet.chains }));
  const ports = await Promise.all(Array.from({ length: options.apis ?? 1 }, () => portRunBelowEphemeralRange()));
  const healthPorts = await Promise.all(
    Array.from({ length: options.workers ?? 1 }, () => portRunBelowEphemeralRange()),
  );
  const bitcoinDevnet = options.bitcoinPoller ? await startFamilyDevnet(bitcoinFactories) : undefined;
  const bitcoinChainsFile = path.join(path.dirname(chainsFile), "bitcoin-chains.json");
  if (bitcoinDevnet) writeFileSync(bitcoinChainsFile, JSON.stringify({ chains: bitcoinDevnet.chains }));
  const pollerHealthPort = await portRunBelowEphemeralRange();
  const serverKey = randomBytes(32);
  const env = {
    DATABASE_URL: db.url,
    REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
    CROSSFILL_CHAINS_FILE: chainsFile,
    // `crossfill api` and `worker` start only with explicit prices.
    PRICES: TEST_PRICES_ENV,
    API_KEY_ENCRYPTION_KEY: serverKey.toString("hex"),
    // Webhooks go to a receiver on 127.0.0.1, as on the devnet.
    WEBHOOK_ALLOW_PRIVATE: "true",
    INDEXER_PORT: String(await portRunBelowEphemeralRange()),
    QUEUE_PREFIX: `crash-${db.name}`,
    LOG_LEVEL: "info",
    // One process per gateway replica: these tests kill and count replicas (`--workers` has its own test).
    API_WORKERS: "1",
    EVM_DEPOSIT_WATCHER: String(options.depositWatcher ?? true),
    RATE_LIMITS: TEST_RATE_LIMITS,
  };
  // Keyed `role#n`: the n-th replica of a role, each gateway on its own port.
  const roles = new Map<string, RoleProcess>();
  const start = async (role: StartedRole, replica = 0) => {
    const keys = solverKeyEnv(role, devnet.solver.privateKey);
    const own: Record<StartedRole, Record<string, string>> = {
      api: { PORT: String(ports[replica]) },
      worker: { HEALTH_PORT: String(healthPorts[replica]) },
      indexer: { HEALTH_PORT: "0" },
      poller: { HEALTH_PORT: String(pollerHealthPort), CROSSFILL_CHAINS_FILE: bitcoinChainsFile },
    };
    const roleEnv = { ...env, ...keys, ...own[role] };
    roles.set(`${role}#${replica}`, await startRoleProcess(READY[role].args, roleEnv, READY[role].message));
  };
  const stop = async () => {
    for (const role of [...roles.values()].reverse()) await role.stop().catch(() => undefined);
    await pool.end();
    await devnet.stop();
    await bitcoinDevnet?.stop();
    await db.drop();
  };
  try {
    await start("indexer");
    if (bitcoinDevnet) await start("poller");
    for (let n = 0; n < (options.workers ?? 1); n++) await start("worker", n);
    for (let n = 0; n < ports.length; n++) await start("api", n);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    devnet,
    databaseUrl: db.url,
    pool,
    redisUrl: env.REDIS_URL,
    queuePrefix: env.QUEUE_PREFIX,
    apiUrl: `http://127.0.0.1:${ports[0]}`,
    apiUrls: ports.map((port) => `http://127.0.0.1:${port}`),
    serverKey,
    workerHealthUrls: healthPorts.map((port) => `http://127.0.0.1:${port}`),
    ...(bitcoinDevnet
      ? {
          bitcoin: {
            devnet: bitcoinDevnet.devnet,
            chainId: bitcoinDevnet.chains[0]!.id,
            healthUrl: `http://127.0.0.1:${pollerHealthPort}`,
          },
        }
      : {}),
    pids: () => Object.fromEntries([...roles].map(([key, role]) => [key, role.pid])),
    async crash(role) {
      await roles.get(`${role}#0`)?.kill();
      const startedAt = Date.now();
      await start(role);
      return Date.now() - startedAt;
    },
    stop,
  };
}

const FILL_EVENT = parseAbiItem(
  "event Fill(bytes32 indexed requestId, address indexed solver, address indexed currency, address recipient, uint256 amount)",
);
const WITHDRAWAL_EVENT = parseAbiItem(
  "event Withdrawal(bytes32 indexed orderId, address indexed currency, address indexed to, uint256 amount)",
);

/**
 * The money-safety invariants, read from the chains and the database: every deposit ended `success` or
 * `refund`; no request was filled twice and no deposit refunded twice on-chain; every status change has
 * its outbox row in a legal order; every outbox row was published. Returns what is violated.
 */
export async function checkInvariants(cluster: CrashCluster): Promise<string[]> {
  const problems: string[] = [];
  const { pool, devnet } = cluster;
  const { rows: requests } = await pool.query<{ id: string; order_id: string; status: string }>(
    `SELECT r.id, r.order_id, r.status FROM crossfill.requests r WHERE EXISTS (SELECT 1 FROM crossfill.request_deposits d WHERE d.request_id = r.id)`,
  );
  for (const request of requests) {
    if (request.status !== "success" && request.status !== "refund")
      problems.push(`request ${request.id} ended ${request.status}`);
  }
  const fills = new Map<string, number>();
  const withdrawals = new Map<string, number>();
  for (const chain of devnet.chains) {
    const client = createEvmChainClient(chain).publicClient;
    for (const log of await client.getLogs({ address: chain.receiver as Address, event: FILL_EVENT, fromBlock: 0n })) {
      fills.set(log.args.requestId!, (fills.get(log.args.requestId!) ?? 0) + 1);
    }
    for (const log of await client.getLogs({
      address: chain.depository as Address,
      event: WITHDRAWAL_EVENT,
      fromBlock: 0n,
    })) {
      const key = `${log.args.orderId}:${log.args.to}:${log.args.amount}`;
      withdrawals.set(key, (withdrawals.get(key) ?? 0) + 1);
    }
  }
  for (const [requestId, count] of fills) if (count > 1) problems.push(`request ${requestId} filled ${count} times`);
  const { rows: refunds } = await pool.query<{ deposit_tx_hash: string; status: string }>(
    "SELECT deposit_tx_hash, status FROM crossfill.refunds",
  );
  const paidRefunds = refunds.filter((refund) => refund.status === "confirmed").length;
  const onChainRefunds = [...withdrawals.values()].reduce((sum, count) => sum + count, 0);
  if (onChainRefunds !== paidRefunds)
    problems.push(`${onChainRefunds} refund withdrawals on-chain for ${paidRefunds} confirmed refunds`);
  for (const [key, count] of withdrawals) if (count > 1) problems.push(`refund ${key} paid ${count} times`);

  const { rows: events } = await pool.query<{
    request_id: string;
    from_status: string | null;
    to_status: string;
    status: string;
  }>(
    `SELECT e.request_id, e.from_status, e.to_status, r.status FROM crossfill.status_events e JOIN crossfill.requests r ON r.id = e.request_id ORDER BY e.id`,
  );
  const last = new Map<string, string>();
  for (const event of events) {
    const previous = last.get(event.request_id);
    if (
      previous !== undefined &&
      (event.from_status !== previous || !canTransition(previous as never, event.to_status as never))
    ) {
      problems.push(
        `request ${event.request_id}: outbox moves ${previous} → ${event.from_status} → ${event.to_status}`,
      );
    }
    last.set(event.request_id, event.to_status);
  }
  const { rows: status } = await pool.query<{ id: string; status: string }>(
    "SELECT id, status FROM crossfill.requests",
  );
  for (const row of status)
    if (last.get(row.id) !== row.status)
      problems.push(`request ${row.id} is ${row.status} but its last outbox row says ${last.get(row.id)}`);

  const { rows: published } = await pool.query<{ behind: boolean }>(
    `SELECT coalesce((SELECT min(last_event_id) FROM crossfill.notify_cursors), 0) < (SELECT max(id) FROM crossfill.status_events) AS behind`,
  );
  // Every notifier (pub/sub, webhooks) must have passed every status change.
  if (published[0].behind) problems.push("a notifier has not published every status change");
  return problems;
}
