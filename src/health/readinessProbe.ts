import type { Logger } from "pino";
import { CrossfillError } from "../domain/errors.js";

/** One dependency a role needs to do its work: it answers, or the check throws. */
export type ReadinessCheck = {
  name: string;
  /** Resolves (optionally with a short public detail, such as a head height) when the dependency answers. */
  check(signal: AbortSignal): Promise<string | void>;
};

export type DependencyState = { ok: boolean; ms: number; detail?: string; error?: string };
export type Readiness = { ready: boolean; checkedAt: string; dependencies: Record<string, DependencyState> };

export type ReadinessProbeOptions = {
  /** A dependency that has not answered in this long counts as down. */
  timeoutMs?: number;
  /** Answers within this long of a check share it: a probe hammered from outside costs the dependencies nothing more. */
  cacheMs?: number;
  now?: () => number;
  /** Where a failed check's whole error goes (the body only names its code: errors may quote keyed URLs). */
  logger?: Pick<Logger, "warn">;
};

/**
 * The role's readiness: every check run at once, each with its own timeout; ready when all answered. Concurrent and
 * recent calls share one round of checks.
 */
export function createReadinessProbe(
  checks: readonly ReadinessCheck[],
  options: ReadinessProbeOptions = {},
): () => Promise<Readiness> {
  const timeoutMs = options.timeoutMs ?? 2_000;
  const cacheMs = options.cacheMs ?? 1_000;
  const now = options.now ?? Date.now;
  let last: { at: number; result: Promise<Readiness> } | undefined;

  const runOne = async (check: ReadinessCheck): Promise<DependencyState> => {
    const started = now();
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new NoAnswerError(timeoutMs));
      }, timeoutMs);
    });
    try {
      const detail = await Promise.race([check.check(controller.signal), timedOut]);
      return { ok: true, ms: now() - started, ...(detail ? { detail } : {}) };
    } catch (error) {
      options.logger?.warn({ err: error, dependency: check.name }, "not ready");
      return { ok: false, ms: now() - started, error: publicReason(error) };
    } finally {
      clearTimeout(timer);
    }
  };

  const round = async (): Promise<Readiness> => {
    const states = await Promise.all(checks.map(runOne));
    const dependencies = Object.fromEntries(checks.map((check, index) => [check.name, states[index]!]));
    return { ready: states.every((state) => state.ok), checkedAt: new Date(now()).toISOString(), dependencies };
  };

  return () => {
    if (!last || now() - last.at >= cacheMs) last = { at: now(), result: round() };
    return last.result;
  };
}

class NoAnswerError extends Error {
  constructor(timeoutMs: number) {
    super(`no answer in ${timeoutMs} ms`);
  }
}

function publicReason(error: unknown): string {
  if (error instanceof CrossfillError) return error.errorCode;
  if (error instanceof NoAnswerError) return error.message;
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === "string" && /^[A-Z0-9_]+$/.test(code) ? code : "unavailable";
}
