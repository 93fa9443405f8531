/**
 * The lookups benchmark's load generator, a child process (`fork`) so the servers' event loops do not share a
 * thread with it: runs autocannon against one target per command, cycling over the given paths with the given
 * headers, and answers with autocannon's summary over IPC.
 */
import autocannon from "autocannon";

export type LookupsLoadCommand =
  | {
      type: "run";
      url: string;
      paths: string[];
      headers?: Record<string, string>;
      connections: number;
      durationSeconds: number;
    }
  | { type: "exit" };

export type LookupsLoadReport = {
  type: "report";
  requestsPerSecond: number;
  requests: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  /** Answers by status class (autocannon's 1xx…5xx counters), errors and timeouts. */
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  cpuMs: number;
};

process.on("message", async (command: LookupsLoadCommand) => {
  if (command.type === "exit") process.exit(0);
  let next = 0;
  const cpuBefore = process.cpuUsage();
  const result = await autocannon({
    url: command.url,
    connections: command.connections,
    duration: command.durationSeconds,
    headers: command.headers,
    requests: [{ setupRequest: (request) => ({ ...request, path: command.paths[next++ % command.paths.length] }) }],
  });
  const cpu = process.cpuUsage(cpuBefore);
  const report: LookupsLoadReport = {
    type: "report",
    requestsPerSecond: Math.round(result.requests.total / command.durationSeconds),
    requests: result.requests.total,
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
    },
    statuses: { "2xx": result["2xx"], "3xx": result["3xx"], "4xx": result["4xx"], "5xx": result["5xx"] },
    errors: result.errors,
    timeouts: result.timeouts,
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
  };
  process.send!(report);
});
