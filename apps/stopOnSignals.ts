import type { Shutdown } from "../src/runtime/shutdown.js";
import type { SteppedShutdown } from "./stopSteps.js";

/** The part of `process` that stopping uses (a test hands in its own). */
export type SignalledProcess = {
  on(signal: "SIGINT" | "SIGTERM", listener: () => void): unknown;
  exit(code: number): void;
  write(text: string): void;
};

const SIGNAL_NUMBER = { SIGINT: 2, SIGTERM: 15 } as const;
// A terminal's Ctrl-C reaches every process of its group, and `npm start` forwards it to its child as well: the one
// keypress arrives twice within milliseconds. A second signal counts only after this long.
const SAME_SIGNAL_MS = 1_000;

/**
 * Stops the role on SIGINT/SIGTERM: the first signal runs its shutdown, "Crossfill stopped." and exit 0 when it ends
 * (1 when it fails). A shutdown still running after `deadlineMs` exits 1 naming the step it hung in (a supervisor
 * waiting for the process would otherwise wait for ever); a second signal, a second or more after the first, exits at
 * once, 128 + its number, as a shell reports a process killed by it. `beforeStop` runs once, when stopping starts.
 */
export function stopOnSignals(
  shutdown: Shutdown | SteppedShutdown,
  options: { deadlineMs: number; process: SignalledProcess; beforeStop?: () => void; now?: () => number },
): void {
  const { process } = options;
  const now = options.now ?? Date.now;
  const running = () => ("running" in shutdown ? shutdown.running() : undefined);
  const hungIn = () => {
    const step = running();
    return step ? ` (still closing: ${step})` : "";
  };
  let stoppingSince: number | undefined;
  const stop = (signal: keyof typeof SIGNAL_NUMBER) => {
    if (stoppingSince !== undefined) {
      if (now() - stoppingSince < SAME_SIGNAL_MS) return;
      process.write(`${signal} again: exiting now${hungIn()}\n`);
      process.exit(128 + SIGNAL_NUMBER[signal]);
      return;
    }
    stoppingSince = now();
    process.write(`\n${signal}: stopping… (again to exit at once)\n`);
    options.beforeStop?.();
    const deadline = setTimeout(() => {
      process.write(`shutdown did not finish in ${options.deadlineMs / 1000} s${hungIn()}: exiting\n`);
      process.exit(1);
    }, options.deadlineMs);
    shutdown().then(
      () => {
        clearTimeout(deadline);
        process.write("Crossfill stopped.\n");
        process.exit(0);
      },
      (error) => {
        clearTimeout(deadline);
        process.write(`shutdown failed${hungIn()}: ${error}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}
