import { startStackApi } from "./startStackApi.js";
import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import pino from "pino";
import { createStatusBus } from "../src/events/createStatusBus.js";
import { startApi } from "../src/gateway/startApi.js";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { TEST_PRICES, startTestStack } from "../test/support/startTestStack.js";
import type { LookupsLoadCommand, LookupsLoadReport } from "./lookupsLoad.js";
import { type MachineInfo, gitCommit, machineInfo } from "./machineInfo.js";
import { peakRssMbByGroup } from "./peakRss.js";
import { cpuBetween, cpuSnapshot } from "./processCpu.js";
import type { Target } from "./target.js";

export type LookupsBenchOptions = { connections: number; durationSeconds: number; requests: number };
export const defaultLookupsBenchOptions: LookupsBenchOptions = { connections: 32, durationSeconds: 10, requests: 1000 };

type Phase = { name: string; url: string; paths: string[]; headers?: Record<string, string> };
type PhaseResult = Omit<LookupsLoadReport, "type"> & { name: string; cpuMsByProcess: Record<string, number> };

export type LookupsBenchResult = {
  benchmark: "lookups";
  date: string;
  commit: string;
  machine: MachineInfo;
  setup: Record<string, unknown>;
  phases: PhaseResult[];
  /** The bare route's rate: the mean of its runs before and after the others (the machine's drift shows in both). */
  floorRequestsPerSecond: number;
  ratios: Record<string, number>;
  peakRssMb: Record<string, { maxMb: number; processes: number }>;
  targets: Target[];
};

/** A body of the size and shape of a status answer, for the bare route. */
const BARE_BODY = {
  status: "success",
  inTxHashes: [`0x${"1".repeat(64)}`],
  txHashes: [`0x${"2".repeat(64)}`],
  updatedAt: 1_700_000_000_000,
  originChainId: 31338,
  destinationChainId: 31339,
  failReason: "N/A",
  refundFailReason: "N/A",
  details: null,
};

/**
 * Lookups at the gateway against a floor in the same run: a bare Hono route answering a small JSON body (same
 * process, same @hono/node-server), `GET /intents/status/v3` from the gateway's status cache and, for reference,
 * from a gateway reading Postgres on every lookup, and `GET /chains` (full body, and 304 on If-None-Match). One load
 * generator for all (autocannon in a forked process), the same connections and duration for each.
 */
export async function lookupsBench(
  options: LookupsBenchOptions,
  log: (line: string) => void,
): Promise<LookupsBenchResult> {
  const date = new Date();
  const machine = machineInfo();
  log("lookups: starting the API (anvil, Postgres; no indexer or worker)");
  const stack = await startTestStack({ pipeline: false, statusCache: true });
  const bus = createStatusBus();
  // As the stack's own API (status lookups not rate limited, so both serve the same load), without its cache.
  const uncached = await startStackApi(stack, bus);
  const bareApp = new Hono().get("/bare", (c) => c.json(BARE_BODY));
  const bare = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const server = serve({ fetch: bareApp.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(server));
  });
  const bareAddress = bare.address();
  const bareUrl = `http://127.0.0.1:${typeof bareAddress === "object" && bareAddress ? bareAddress.port : 0}`;
  const child: ChildProcess = fork(fileURLToPath(new URL("./lookupsLoad.ts", import.meta.url)), [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const run = (phase: Phase, durationSeconds = options.durationSeconds) =>
    new Promise<LookupsLoadReport>((resolve, reject) => {
      const onError = (error: Error) => reject(error);
      child.once("error", onError);
      child.once("message", (message) => {
        child.off("error", onError);
        resolve(message as LookupsLoadReport);
      });
      const command: LookupsLoadCommand = {
        type: "run",
        url: phase.url,
        paths: phase.paths,
        headers: phase.headers,
        connections: options.connections,
        durationSeconds,
      };
      child.send(command);
    });
  try {
    log(`lookups: seeding ${options.requests} requests`);
    const ids: string[] = [];
    for (let i = 0; i < options.requests; i++) ids.push((await insertTestRequest(stack.pool)).id);
    // Half of them finished, as most looked-up requests of a busy service are.
    await stack.pool.query("UPDATE crossfill.requests SET status = 'success' WHERE id = ANY($1)", [
      ids.filter((_, i) => i % 2 === 0),
    ]);
    const statusPaths = ids.map((id) => `/intents/status/v3?requestId=${id}`);
    const chainsEtag = (await fetch(`${stack.api.url}/chains`)).headers.get("etag") ?? "";
    const bareRun: Phase = { name: "bare Hono route", url: bareUrl, paths: ["/bare"] };
    const phases: Phase[] = [
      bareRun,
      { name: "GET /intents/status/v3 (status cache)", url: stack.api.url, paths: statusPaths },
      { name: "GET /chains", url: stack.api.url, paths: ["/chains"] },
      {
        name: "GET /chains, If-None-Match (304)",
        url: stack.api.url,
        paths: ["/chains"],
        headers: { "if-none-match": chainsEtag },
      },
      { name: "GET /intents/status/v3 (Postgres per lookup)", url: uncached.url, paths: statusPaths },
      { ...bareRun, name: "bare Hono route (again)" },
    ];
    const results: PhaseResult[] = [];
    for (const phase of phases) {
      await run(phase, 2); // warm-up: JIT, connections, the cache's first reads
      const before = cpuSnapshot({ "load generator": child.pid });
      const report = await run(phase);
      const cpuMsByProcess = cpuBetween(before, cpuSnapshot({ "load generator": child.pid }));
      const { type: _type, ...rest } = report;
      results.push({ name: phase.name, ...rest, cpuMsByProcess });
      log(`lookups: ${phase.name}: ${report.requestsPerSecond} req/s, p50 ${report.latencyMs.p50} ms`);
    }
    const rate = (name: string) => results.find((r) => r.name === name)!.requestsPerSecond;
    const floor = Math.round((rate("bare Hono route") + rate("bare Hono route (again)")) / 2);
    const ratio = (name: string) => Math.round((rate(name) / floor) * 1000) / 1000;
    const ratios = {
      statusCached: ratio("GET /intents/status/v3 (status cache)"),
      statusPostgres: ratio("GET /intents/status/v3 (Postgres per lookup)"),
      chains: ratio("GET /chains"),
      chainsNotModified: ratio("GET /chains, If-None-Match (304)"),
    };
    const wrong = results.filter((r) =>
      r.name.includes("304") ? r.statuses["3xx"] !== r.requests : r.statuses["2xx"] !== r.requests,
    );
    const targets: Target[] = [
      {
        metric: "GET /intents/status/v3 req/s ÷ bare route",
        target: "≥ 0.25",
        measured: ratios.statusCached,
        met: ratios.statusCached >= 0.25,
      },
      { metric: "GET /chains req/s ÷ bare route", target: "≥ 0.5", measured: ratios.chains, met: ratios.chains >= 0.5 },
      {
        metric: "answers with the expected status (200, or 304)",
        target: "all",
        measured: wrong.length ? wrong.map((r) => r.name).join(", ") : "all",
        met: wrong.length === 0,
      },
    ];
    return {
      benchmark: "lookups",
      date: date.toISOString(),
      commit: gitCommit(),
      machine,
      setup: {
        stack:
          "startTestStack({ pipeline: false, statusCache: true }): 2 anvil chains, fresh Postgres database, API in the bench process; a second API without the status cache on the same database; the bare route on its own @hono/node-server in the same process",
        load: `autocannon 9 in a forked process, ${options.connections} connections, ${options.durationSeconds} s per phase after a 2 s warm-up; status lookups cycle over ${options.requests} seeded requests (half success, half waiting)`,
        ...options,
      },
      phases: results,
      floorRequestsPerSecond: floor,
      ratios,
      peakRssMb: peakRssMbByGroup({ "load generator": child.pid }),
      targets,
    };
  } finally {
    child.send({ type: "exit" } satisfies LookupsLoadCommand);
    await new Promise<void>((resolve) => bare.close(() => resolve()));
    await uncached.close();
    await bus.close();
    await stack.stop();
  }
}
