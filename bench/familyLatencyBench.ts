import { type TestStack, startTestStack } from "../test/support/startTestStack.js";
import { gitCommit, machineInfo } from "./machineInfo.js";
import type { Summary } from "./percentiles.js";
import { peakRssMbByGroup } from "./peakRss.js";
import { cpuBetween, cpuSnapshot } from "./processCpu.js";
import { statusEvents } from "./statusEvents.js";
import type { Target } from "./target.js";
import { wallClockMs } from "./wallClock.js";

/** A request that did not get through, with the statuses it reached. */
export type FamilyLatencyFailure = { requestId: string; statuses: string[]; error?: string };

/** A payment that did not get through, and why. */
export type FamilyLatencyMiss = { missed: { requestId: string; error: string } };
export const missed = (requestId: string, error: string): FamilyLatencyMiss => ({ missed: { requestId, error } });

/** What one family's payment helpers get: the stack, and waits on its status rows polled every 5 ms. */
export type FamilyLatencyTools = {
  stack: TestStack;
  /** When the request first reached `status` (the row's `created_at`, epoch ms), or null before. */
  statusAt(requestId: string, status: string): Promise<number | null>;
  /** Polls `probe` every 5 ms until it is true: the local time it first was, or null after the timeout. */
  waitUntil(probe: () => Promise<boolean>): Promise<number | null>;
  /** Polls until the request reaches `status`: that row's `created_at`, or null after the timeout. */
  waitForStatus(requestId: string, status: string): Promise<number | null>;
};

/**
 * What differs between the families' latency benchmarks: the stack to start, what to read before the run (the
 * family's devnet, its poller's floor), how to make one payment and what to wait for, and how to sum the samples up.
 */
export type FamilyLatencySpec<Sample, Context> = {
  benchmark: string;
  stack: Parameters<typeof startTestStack>[0];
  /** What is started, for the first log line. */
  starting: string;
  /** How many payments, one at a time, and how long each wait may take. */
  count: number;
  timeoutMs: number;
  /** The samples' key in the result (`deposits`, `withdrawals`), and one of them, for the log and errors. */
  samplesKey: string;
  noun: string;
  /** The log line before the payments. */
  describeLoad: string;
  prepare(tools: FamilyLatencyTools): Promise<Context>;
  /** One payment, from quote to its last status: its sample, or why it did not get through. */
  one(context: Context, index: number, tools: FamilyLatencyTools): Promise<{ sample: Sample } | FamilyLatencyMiss>;
  /** The log line of one payment that got through. */
  progress(sample: Sample): string;
  /** The result's family fields: `head` before `completed` and `tail` after `failed`, as each family's files show. */
  finish(
    samples: Sample[],
    context: Context,
  ): {
    setup: Record<string, unknown>;
    head: Record<string, unknown>;
    tail: Record<string, unknown>;
    latencyMs: Record<string, Summary | null>;
  };
  targets(samples: Sample[]): Target[];
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Rounds a duration to hundredths of a millisecond, as the samples are written. */
export const roundMs = (value: number): number => Math.round(value * 100) / 100;

/**
 * One family's latency benchmark on the full test stack: payments one at a time, so each latency is its own and not
 * a queue's, the stack's CPU and peak memory over them, the samples summed up by the family.
 */
export async function runFamilyLatencyBench<Sample, Context>(
  spec: FamilyLatencySpec<Sample, Context>,
  log: (line: string) => void,
): Promise<Record<string, unknown>> {
  const date = new Date();
  const machine = machineInfo();
  log(`${spec.benchmark}: starting the stack (${spec.starting})`);
  const stack = await startTestStack(spec.stack);
  stack.pool.on("error", (error) => log(`pool error (ignored): ${error.message}`));
  try {
    const { at: statusAt, of: statusesOf } = statusEvents(stack.pool);
    const waitUntil = async (probe: () => Promise<boolean>): Promise<number | null> => {
      const deadline = Date.now() + spec.timeoutMs;
      while (Date.now() < deadline) {
        if (await probe()) return wallClockMs();
        await sleep(5);
      }
      return null;
    };
    const waitForStatus = async (requestId: string, status: string): Promise<number | null> => {
      const deadline = Date.now() + spec.timeoutMs;
      while (Date.now() < deadline) {
        const at = await statusAt(requestId, status);
        if (at !== null) return at;
        await sleep(5);
      }
      return null;
    };
    const tools: FamilyLatencyTools = { stack, statusAt, waitUntil, waitForStatus };
    const context = await spec.prepare(tools);

    log(`${spec.benchmark}: ${spec.describeLoad}`);
    const cpuBefore = cpuSnapshot();
    const samples: Sample[] = [];
    const failed: FamilyLatencyFailure[] = [];
    for (let index = 0; index < spec.count; index++) {
      const outcome = await spec.one(context, index, tools);
      if ("missed" in outcome) {
        const { requestId, error } = outcome.missed;
        failed.push({ requestId, statuses: await statusesOf(requestId), error });
        continue;
      }
      samples.push(outcome.sample);
      log(`${spec.benchmark}: ${index + 1}/${spec.count} ${spec.progress(outcome.sample)}`);
    }
    const cpuMsByProcess = cpuBetween(cpuBefore, cpuSnapshot());
    const peakRssMb = peakRssMbByGroup();
    if (samples.length === 0) throw new Error(`no ${spec.noun} completed: ${JSON.stringify(failed.slice(0, 3))}`);
    const { setup, head, tail, latencyMs } = spec.finish(samples, context);
    return {
      benchmark: spec.benchmark,
      date: date.toISOString(),
      commit: gitCommit(),
      machine,
      setup,
      ...head,
      completed: samples.length,
      failed,
      ...tail,
      latencyMs,
      cpuMsByProcess,
      peakRssMb,
      [spec.samplesKey]: samples,
      targets: spec.targets(samples),
    };
  } finally {
    await stack.stop();
  }
}
