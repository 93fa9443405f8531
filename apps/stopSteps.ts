import type { Shutdown } from "../src/runtime/shutdown.js";

/** One thing a role closes when it stops, named for the message of a shutdown that hangs in it. */
export type StopStep = readonly [name: string, stop: () => Promise<unknown> | unknown];

/** A Shutdown that can say which of its steps is running: the one a missed deadline names. */
export type SteppedShutdown = Shutdown & { running(): string | undefined };

/** The steps in order, each awaited before the next (a later step may need an earlier one closed first). */
export function stopSteps(steps: readonly StopStep[]): SteppedShutdown {
  let running: string | undefined;
  const shutdown = async () => {
    for (const [name, stop] of steps) {
      running = name;
      await stop();
    }
    running = undefined;
  };
  return Object.assign(shutdown, { running: () => running });
}
