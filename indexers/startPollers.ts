import type pg from "pg";
import type { Logger } from "pino";
import { type PollerHealth, type StartPollerOptions, startPoller } from "./poller/startPoller.js";
import type { FactPosition } from "../src/domain/factPosition.js";
import { repeatEvery } from "../src/runtime/repeatEvery.js";

/** One chain of a poller role: its source and settings (the role gives the pool and the logger). */
export type PollerChain = Omit<StartPollerOptions, "pool" | "logger">;

/**
 * The composition of a poller role (`crossfill indexer <vm>` for a family Ponder does not index): one poller per
 * chain of that family, their health logged every `healthLogEveryMs` (default 1 min) and served by `health()`.
 * `heads()` feeds recordIndexerHeads, as the EVM indexer does. `stop()` stops the log and every poller, each after its
 * pass under way; the caller then closes the pool.
 */
export function startPollers(deps: {
  pool: pg.Pool;
  logger: Logger;
  chains: readonly PollerChain[];
  healthLogEveryMs?: number;
}): { stop(): Promise<void>; health(): PollerHealth[]; heads(): Promise<Map<number, FactPosition>> } {
  const pollers = deps.chains.map((chain) => startPoller({ ...chain, pool: deps.pool, logger: deps.logger }));
  const health = () => pollers.map((poller) => poller.health());
  const healthLog = repeatEvery(
    deps.healthLogEveryMs ?? 60_000,
    async () => void deps.logger.info({ pollers: health() }, "poller health"),
    () => undefined,
  );
  return {
    async stop() {
      await healthLog.close();
      await Promise.all(pollers.map((poller) => poller.stop()));
    },
    health,
    // What recordIndexerHeads copies to chain_heads (blockProductionLagging): the block each chain is recorded up to.
    heads: async () =>
      new Map(health().flatMap(({ chainId, cursor }) => (cursor === null ? [] : [[chainId, cursor] as const]))),
  };
}
