import { type ChildProcess, spawn } from "node:child_process";
import { anvilBinary } from "./anvilBinary.js";
import { isPortFree } from "./isPortFree.js";

export type StartAnvilOptions = {
  chainId: number;
  port: number;
  /** Seconds between blocks; 0 mines one block per transaction (automine), the fastest for tests. */
  blockTime?: number;
  mnemonic?: string;
  /** Path of the anvil executable; defaults to the one installed by @foundry-rs/anvil. */
  binary?: string;
  /** Milliseconds to wait for anvil to answer before giving up. */
  timeoutMs?: number;
};

export type AnvilInstance = {
  rpcUrl: string;
  wsUrl: string;
  chainId: number;
  port: number;
  pid: number;
  stop(): Promise<void>;
};

const host = "127.0.0.1";

// A crashed test runner must not leave anvils behind. Only on a normal exit: a SIGKILLed parent (or an
// unhandled SIGTERM) still does, the composition root handles signals.
const live = new Set<ChildProcess>();
let exitHookInstalled = false;

/**
 * Spawns one anvil and resolves once it answers `eth_chainId` with the requested id. Rejects with
 * anvil's own message when the port is taken or it exits early.
 */
export async function startAnvil(options: StartAnvilOptions): Promise<AnvilInstance> {
  const { chainId, port, blockTime = 1, mnemonic, binary = anvilBinary(), timeoutMs = 10_000 } = options;
  if (chainId === 1337 || chainId === 8253038) {
    throw new Error(`chain id ${chainId} is reserved (the official client treats it as the perps exchange or Bitcoin)`);
  }
  if (!Number.isInteger(port) || port <= 0)
    throw new Error(`startAnvil needs an explicit port (got ${port}); use freePort()`);
  // Checked first because an anvil already on this port would answer our readiness probe.
  if (!(await isPortFree(port, host)))
    throw new Error(`cannot start anvil for chain ${chainId}: port ${port} on ${host} is already in use`);

  const args = ["--host", host, "--port", String(port), "--chain-id", String(chainId)];
  if (blockTime > 0) args.push("--block-time", String(blockTime));
  if (mnemonic) args.push("--mnemonic", mnemonic);

  // A group of its own: a terminal's Ctrl-C reaches the service, which stops its chains after what uses them.
  const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"], detached: true });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    if (stderr.length < 8192) stderr += chunk;
  });
  // anvil logs every RPC call on stdout; we only need its "Listening on" line, then discard the rest.
  let stdout = "";
  let listening = false;
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    if (listening) return;
    stdout += chunk;
    if (stdout.includes(`Listening on ${host}:${port}`)) listening = true;
    if (stdout.length > 65536) stdout = stdout.slice(-4096);
  });

  let exited: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  const exitPromise = new Promise<void>((resolve) => {
    child.once("exit", (code, signal) => {
      exited = { code, signal };
      resolve();
    });
  });
  let spawnError: Error | null = null;
  child.once("error", (err) => {
    spawnError = err;
    live.delete(child);
  });

  live.add(child);
  if (!exitHookInstalled) {
    // One listener for all anvils of this process, however many are started.
    process.once("exit", () => live.forEach((c) => c.kill("SIGKILL")));
    exitHookInstalled = true;
  }
  void exitPromise.then(() => live.delete(child));

  const stop = async () => {
    if (exited || spawnError) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
    await exitPromise;
    clearTimeout(timer);
  };

  const rpcUrl = `http://${host}:${port}`;
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      if (spawnError) throw new Error(`cannot start anvil (${binary}): ${(spawnError as Error).message}`);
      if (exited) {
        const { code, signal } = exited as { code: number | null; signal: NodeJS.Signals | null };
        throw new Error(
          `anvil for chain ${chainId} on port ${port} exited before it was ready (code ${code}, signal ${signal}): ${stderr.trim() || "no output"}`,
        );
      }
      if (listening) {
        const answered = await rpcChainId(rpcUrl);
        if (answered === chainId) break;
        if (answered !== null) throw new Error(`port ${port} answers with chain id ${answered}, expected ${chainId}`);
      }
      if (Date.now() > deadline)
        throw new Error(`anvil for chain ${chainId} on port ${port} did not answer within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
  } catch (err) {
    await stop();
    throw err;
  }

  return { rpcUrl, wsUrl: `ws://${host}:${port}`, chainId, port, pid: child.pid!, stop };
}

async function rpcChainId(rpcUrl: string): Promise<number | null> {
  try {
    const res = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(1000),
    });
    const body = (await res.json()) as { result?: string };
    return body.result ? Number(BigInt(body.result)) : null;
  } catch {
    return null;
  }
}
