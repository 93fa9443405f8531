import type pg from "pg";
import type { Logger } from "pino";
import { type DepositWatcher, type DepositWatcherHealth, startDepositWatcher } from "./evm/startDepositWatcher.js";
import { type ChainConfig, isEvmChain } from "../src/chains/chainConfig.js";
import { pruneHeadWatcherFacts } from "../schema/chainFacts.js";
import { repeatEvery } from "../src/runtime/repeatEvery.js";

/** How long the watchers' deposit facts are kept (Ponder's rows are the record), and how often older ones are deleted. */
const KEEP_FACTS_MS = 7 * 24 * 3_600_000;
const PRUNE_EVERY_MS = 3_600_000;

/** The EVM chains a head watcher can follow: those with a websocket endpoint. */
function depositWatcherChains(chains: readonly ChainConfig[]) {
  return chains.filter(isEvmChain).flatMap((chain) => (chain.wsUrl ? [{ ...chain, wsUrl: chain.wsUrl }] : []));
}

/**
 * One head watcher per EVM chain with a `wsUrl`, beside the EVM indexer (`crossfill indexer evm`, `npm start`): the
 * chains without one are left to Ponder alone, which the log says once. Their health is logged every
 * `healthLogEveryMs` (default 1 min). Their facts older than `keepFactsMs` (default 7 days) are deleted every
 * `pruneEveryMs` (default 1 hour), so `deposit_facts` does not keep a second copy of every EVM deposit. `stop()` stops
 * them all.
 */
export function startDepositWatchers(deps: {
  pool: pg.Pool;
  logger: Logger;
  chains: readonly ChainConfig[];
  healthLogEveryMs?: number;
  keepFactsMs?: number;
  pruneEveryMs?: number;
  stopping?: () => boolean;
}): {
  health(): DepositWatcherHealth[];
  stop(): Promise<void>;
} {
  const watched = depositWatcherChains(deps.chains);
  const unwatched = deps.chains.filter(isEvmChain).filter((chain) => !chain.wsUrl);
  if (unwatched.length > 0)
    deps.logger.info(
      { chainIds: unwatched.map((chain) => chain.id) },
      "no wsUrl: these chains' deposits wait for Ponder's row (no head watcher)",
    );
  const watchers: DepositWatcher[] = watched.map((chain) =>
    startDepositWatcher({ pool: deps.pool, logger: deps.logger, chain, stopping: deps.stopping }),
  );
  const health = () => watchers.map((watcher) => watcher.health());
  const healthLog =
    watchers.length === 0
      ? undefined
      : repeatEvery(
          deps.healthLogEveryMs ?? 60_000,
          async () => void deps.logger.info({ watchers: health() }, "deposit watcher health"),
          () => undefined,
        );
  const keepFactsMs = deps.keepFactsMs ?? KEEP_FACTS_MS;
  const pruning = repeatEvery(
    deps.pruneEveryMs ?? PRUNE_EVERY_MS,
    async () => {
      const deleted = await pruneHeadWatcherFacts(deps.pool, keepFactsMs);
      if (deleted > 0) deps.logger.info({ deleted, keepFactsMs }, "deposit watcher facts pruned");
    },
    (error) => deps.logger.warn({ err: error }, "deposit watcher facts not pruned; trying again"),
    // Soon after start too: a role restarted more often than hourly would otherwise never prune.
    { firstAfterMs: Math.min(60_000, deps.pruneEveryMs ?? PRUNE_EVERY_MS) },
  );
  return {
    health,
    async stop() {
      await pruning.close();
      await healthLog?.close();
      await Promise.all(watchers.map((watcher) => watcher.stop()));
    },
  };
}
