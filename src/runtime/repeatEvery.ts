import { reportNewErrors } from "./reportNewErrors.js";

/**
 * Runs `pass` `everyMs` after the end of the previous pass (never two at once) until closed; `close` waits for a
 * pass under way. A pass that throws is not retried sooner; `onNewError` hears of a failure only when it differs
 * from the previous pass's (a database down for a minute is one log line, not one per pass).
 */
export function repeatEvery(
  everyMs: number,
  pass: () => Promise<void>,
  onNewError: (error: unknown) => void,
): { close(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const errors = reportNewErrors(onNewError);
  const guarded = async () => {
    try {
      await pass();
      errors.succeeded();
    } catch (error) {
      errors.failed(error);
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = guarded().finally(schedule);
    }, everyMs);
  };
  schedule();
  return {
    async close() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
