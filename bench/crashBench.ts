import { zeroAddress } from "viem";
import { type CrashCluster, type Role, checkInvariants, startCrashCluster } from "../test/support/crashCluster.js";
import { harmlessCall, revertCallsBeforeFill } from "../test/support/revertingCalls.js";
import { sendSteps } from "../test/support/sendSteps.js";
import { type MachineInfo, gitCommit, machineInfo } from "./machineInfo.js";
import { type Summary, summarize } from "./percentiles.js";
import type { Target } from "./target.js";

export type CrashBenchOptions = { intents: number; killEveryMs: number; failingShare: number; timeoutMs: number };
export const defaultCrashBenchOptions: CrashBenchOptions = {
  intents: 200,
  killEveryMs: 8_000,
  failingShare: 0.1,
  timeoutMs: 600_000,
};

export type CrashBenchResult = {
  benchmark: "crash";
  date: string;
  commit: string;
  machine: MachineInfo;
  setup: Record<string, unknown>;
  intents: { total: number; success: number; refund: number; unfinished: number };
  kills: Record<Role, number>;
  /** From SIGKILL to the restarted process being ready. */
  restartMs: Summary | null;
  /** Quote to final status for every intent (kills included). */
  intentMs: Summary;
  /** Intents in flight when a kill hit, from the kill to their final status. */
  recoveryMs: Summary | null;
  invariantViolations: string[];
  targets: Target[];
};

// The bound on recovery: a killed role is back and its in-flight intents finish within this.
const RECOVERY_TARGET_MS = 20_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** fetch that waits out a gateway being restarted. */
async function retrying<T>(work: () => Promise<T>, deadline: number): Promise<T> {
  for (;;) {
    try {
      return await work();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(250);
    }
  }
}

/**
 * The long crash run: intents from every test account in parallel lanes while a random role (gateway,
 * worker, indexer) is SIGKILLed and restarted every few seconds; then the money invariants are checked.
 */
export async function crashBench(options: CrashBenchOptions, log: (line: string) => void): Promise<CrashBenchResult> {
  const date = new Date().toISOString();
  const cluster: CrashCluster = await startCrashCluster();
  const kills: Record<Role, number> = { api: 0, worker: 0, indexer: 0 };
  const restarts: number[] = [];
  const killTimes: number[] = [];
  const durations: number[] = [];
  const recoveries: number[] = [];
  const finals: string[] = [];
  const deadline = Date.now() + options.timeoutMs;
  try {
    const [origin, destination] = cluster.devnet.chains;
    let next = 0;
    let done = false;
    const lane = async (account: number) => {
      for (;;) {
        const index = next++;
        if (index >= options.intents) return;
        const failing = Math.random() < options.failingShare;
        const started = Date.now();
        const quote = await retrying(async () => {
          const response = await fetch(`${cluster.apiUrl}/quote/v2`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              user: cluster.devnet.accounts[account].address,
              originChainId: origin.id,
              destinationChainId: destination.id,
              originCurrency: zeroAddress,
              destinationCurrency: zeroAddress,
              amount: "10000000000000000",
              tradeType: failing ? "EXACT_OUTPUT" : "EXACT_INPUT",
              ...(failing
                ? { txs: [harmlessCall(destination.callTarget, cluster.devnet.accounts[account].address)] }
                : {}),
            }),
          });
          if (response.status !== 200) throw new Error(`quote answered ${response.status}`);
          return response.json();
        }, deadline);
        if (failing) await revertCallsBeforeFill(cluster.pool, quote.requestId, destination.callTarget);
        await sendSteps(quote, cluster.devnet.accounts[account], origin);
        for (;;) {
          const status = await retrying(async () => {
            const response = await fetch(`${cluster.apiUrl}/intents/status/v3?requestId=${quote.requestId}`);
            return ((await response.json()) as { status: string }).status;
          }, deadline);
          if (status === "success" || status === "refund") {
            const now = Date.now();
            durations.push(now - started);
            finals.push(status);
            const hit = killTimes.filter((at) => at >= started && at <= now);
            if (hit.length) recoveries.push(now - hit[hit.length - 1]);
            break;
          }
          if (Date.now() > deadline) throw new Error(`intent ${quote.requestId} stuck at ${status}`);
          await sleep(200);
        }
        if ((index + 1) % 25 === 0)
          log(`crash: ${index + 1}/${options.intents} intents, kills ${JSON.stringify(kills)}`);
      }
    };
    const killer = async () => {
      const roles: Role[] = ["api", "worker", "indexer"];
      while (!done) {
        await sleep(options.killEveryMs * (0.5 + Math.random()));
        if (done) return;
        const role = roles[Math.floor(Math.random() * roles.length)];
        kills[role] += 1;
        killTimes.push(Date.now());
        restarts.push(await cluster.crash(role));
      }
    };
    const killing = killer();
    await Promise.all(cluster.devnet.accounts.map((_, account) => lane(account)));
    done = true;
    await killing;
    let violations: string[] = [];
    for (let tries = 0; tries < 40; tries += 1) {
      violations = await checkInvariants(cluster);
      if (violations.length === 0) break;
      await sleep(250);
    }
    const recoveryMs = recoveries.length ? summarize(recoveries) : null;
    const finished = finals.length;
    return {
      benchmark: "crash",
      date,
      commit: gitCommit(),
      machine: machineInfo(),
      setup: {
        ...options,
        lanes: cluster.devnet.accounts.length,
        blockTimeSeconds: 1,
        roles: "api, worker, indexer as separate processes, SIGKILL of the process group",
      },
      intents: {
        total: options.intents,
        success: finals.filter((s) => s === "success").length,
        refund: finals.filter((s) => s === "refund").length,
        unfinished: options.intents - finals.length,
      },
      kills,
      restartMs: restarts.length ? summarize(restarts) : null,
      intentMs: summarize(durations),
      recoveryMs,
      invariantViolations: violations,
      targets: [
        {
          metric: "intents ending success or refund",
          target: String(options.intents),
          measured: finished,
          met: finished === options.intents,
        },
        { metric: "invariant violations", target: "0", measured: violations.length, met: violations.length === 0 },
        {
          metric: "recovery of in-flight intents, max",
          target: `≤ ${RECOVERY_TARGET_MS} ms`,
          measured: recoveryMs ? `${recoveryMs.max} ms` : "no intent was hit",
          met: !recoveryMs || recoveryMs.max <= RECOVERY_TARGET_MS,
        },
      ],
    };
  } finally {
    await cluster.stop();
  }
}
