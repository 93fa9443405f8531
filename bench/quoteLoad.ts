/**
 * The quote benchmark's load generator, run as a child process (`fork`) so that the server's event loop does
 * not share a thread with the client's. It POSTs the given bodies round-robin over keep-alive connections
 * (node:http with a keep-alive Agent: lighter per request than fetch) and answers each phase with its
 * samples over IPC.
 */
import http from "node:http";
import { performance } from "node:perf_hooks";

export type LoadPhase =
  { kind: "sequential"; count: number } | { kind: "concurrent"; concurrency: number; durationMs: number };
/** `addresses`: each request names one of that many client addresses in X-Forwarded-For, round-robin (default: none). */
export type LoadCommand =
  { type: "run"; url: string; bodies: string[]; phase: LoadPhase; addresses?: number } | { type: "exit" };
/** One finished request: index of its body, latency in ms (to the last byte of the answer), HTTP status (0: no answer). */
export type LoadSample = [body: number, ms: number, status: number];
export type LoadReport = {
  type: "report";
  samples: LoadSample[];
  elapsedMs: number;
  cpuMs: number;
  firstError?: string;
};

type Target = { url: URL; bodies: Buffer[]; agent: http.Agent; addresses: number };

let sent = 0;
function post(target: Target, index: number): Promise<LoadSample> {
  const body = target.bodies[index];
  const n = sent++ % Math.max(1, target.addresses);
  const forwarded = target.addresses > 0 ? { "x-forwarded-for": `10.${n >> 16}.${(n >> 8) & 255}.${n & 255}` } : {};
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.request(
      target.url,
      {
        method: "POST",
        agent: target.agent,
        headers: { "content-type": "application/json", "content-length": body.length, ...forwarded },
      },
      (response) => {
        response.on("data", () => {});
        response.on("error", reject);
        response.on("end", () => resolve([index, performance.now() - start, response.statusCode ?? 0]));
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

async function runPhase(target: Target, phase: LoadPhase): Promise<Omit<LoadReport, "type">> {
  const samples: LoadSample[] = [];
  let next = 0;
  let firstError: string | undefined;
  const one = async () => {
    const index = next++ % target.bodies.length;
    try {
      samples.push(await post(target, index));
    } catch (error) {
      firstError ??= (error as Error).message;
      samples.push([index, 0, 0]);
    }
  };
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  if (phase.kind === "sequential") {
    for (let i = 0; i < phase.count; i++) await one();
  } else {
    const deadline = start + phase.durationMs;
    await Promise.all(
      Array.from({ length: phase.concurrency }, async () => {
        while (performance.now() < deadline) await one();
      }),
    );
  }
  const elapsedMs = performance.now() - start;
  const cpu = process.cpuUsage(cpuBefore);
  return { samples, elapsedMs, cpuMs: (cpu.user + cpu.system) / 1000, ...(firstError ? { firstError } : {}) };
}

const agents = new Map<number, http.Agent>();
process.on("message", (command: LoadCommand) => {
  if (command.type === "exit") {
    for (const agent of agents.values()) agent.destroy();
    process.disconnect();
    return;
  }
  const sockets = command.phase.kind === "concurrent" ? command.phase.concurrency : 1;
  let agent = agents.get(sockets);
  if (!agent) {
    agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
    agents.set(sockets, agent);
  }
  const target: Target = {
    url: new URL("/quote/v2", command.url),
    bodies: command.bodies.map((body) => Buffer.from(body)),
    agent,
    addresses: command.addresses ?? 0,
  };
  runPhase(target, command.phase).then(
    (report) => process.send?.({ type: "report", ...report } satisfies LoadReport),
    (error: Error) =>
      process.send?.({
        type: "report",
        samples: [],
        elapsedMs: 0,
        cpuMs: 0,
        firstError: error.message,
      } satisfies LoadReport),
  );
});
