import { reportNewErrors } from "./reportNewErrors.js";

export type RepeatOptions = {
  /** The wait before the first pass; default `everyMs`. */
  firstAfterMs?: number;
  /** The wait after the `failures`-th failed pass in a row (1, 2, …) instead of `everyMs`: a backoff. */
  retryDelay?: (failures: number) => number;
};

/**
 * Runs `pass` `everyMs` after the end of the previous pass (never two at once) until closed; `close` waits for a
 * pass under way. A pass may return how long to wait before the next one instead (0 when it knows more work is
 * waiting). A pass that throws waits `retryDelay` when given, else `everyMs`; `onNewError` hears of a failure only
 * when it differs from the previous pass's (a database down for a minute is one log line, not one per pass).
 */
export function repeatEvery(
  everyMs: number,
  pass: () => Promise<number | void>,
  onNewError: (error: unknown) => void,
  options: RepeatOptions = {},
): { close(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let failures = 0;
  const errors = reportNewErrors(onNewError);
  const guarded = async (): Promise<number> => {
    try {
      const next = await pass();
      errors.succeeded();
      failures = 0;
      return next ?? everyMs;
    } catch (error) {
      errors.failed(error);
      failures += 1;
      return options.retryDelay?.(failures) ?? everyMs;
    }
  };
  const schedule = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = guarded().then(schedule);
    }, delayMs);
  };
  schedule(options.firstAfterMs ?? everyMs);
  return {
    async close() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
