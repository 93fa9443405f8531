import { isPortFree } from "./isPortFree.js";

/** A port the devnet is about to listen on, with the variable that moves it. */
export type PlannedPort = { what: string; variable: string; host: string; port: number };

/**
 * What of `ports` is taken now, one line each naming the variable that moves it: checked together before anything
 * starts, so a busy port fails `npm start` at once instead of after the chains and the database are up. Port 0 (any
 * free port) is never busy.
 */
export async function busyPorts(ports: readonly PlannedPort[]): Promise<string[]> {
  const busy: string[] = [];
  for (const { what, variable, host, port } of ports) {
    if (port !== 0 && !(await isPortFree(port, host)))
      busy.push(`${what}: port ${port} on ${host} is in use (set ${variable}= to another port)`);
  }
  return busy;
}
