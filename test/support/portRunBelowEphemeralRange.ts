import { readFileSync } from "node:fs";
import { isPortFree } from "../../devnet/isPortFree.js";

/** The OS's ephemeral range (Linux); ports the kernel hands to outgoing connections and port-0 listeners. */
function ephemeralRange(): { low: number; high: number } {
  try {
    const [low, high] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number);
    if (low! > 0 && high! >= low!) return { low: low!, high: high! };
  } catch {
    // not Linux: IANA's range
  }
  return { low: 49152, high: 65535 };
}

const LOWEST = 20_000;

/**
 * The first of `count` consecutive ports, free now, below the OS's ephemeral range. A child process binds them tens
 * of seconds after the test picks them (npm start binds its indexer once the devnets are up); a port from the
 * ephemeral range (`freePort`) can meanwhile become another process's outgoing connection or port-0 listener, one
 * below it only by another explicit pick.
 */
export async function portRunBelowEphemeralRange(count = 1): Promise<number> {
  const { low } = ephemeralRange();
  const highest = Math.max(LOWEST + count, low) - count;
  for (let attempt = 0; attempt < 200; attempt++) {
    const first = LOWEST + Math.floor(Math.random() * (highest - LOWEST));
    const free = await Promise.all(Array.from({ length: count }, (_, i) => isPortFree(first + i)));
    if (free.every(Boolean)) return first;
  }
  throw new Error(`no ${count} free consecutive ports between ${LOWEST} and ${highest + count}`);
}
