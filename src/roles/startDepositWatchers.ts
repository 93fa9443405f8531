import type pg from "pg";
import type { Logger } from "pino";
import {
  type DepositWatcher,
  type DepositWatcherHealth,
  startDepositWatcher,
} from "../../indexers/evm/startDepositWatcher.js";
import { type ChainConfig, isEvmChain } from "../chains/chainConfig.js";
import { repeatEvery } from "../runtime/repeatEvery.js";

/** The EVM chains a head watcher can follow: those with a websocket endpoint. */
function depositWatcherChains(chains: readonly ChainConfig[]) {
  return chains.filter(isEvmChain).flatMap((chain) => (chain.wsUrl ? [{ ...chain, wsUrl: chain.wsUrl }] : []));
}

/**
 * One head watcher per EVM chain with a `wsUrl`, beside the EVM indexer (`crossfill indexer evm`, `npm start`): the
 * chains without one are left to Ponder alone, which the log says once. Their health is logged every
 * `healthLogEveryMs` (default 1 min). `stop()` stops them all.
 */
export function startDepositWatchers(deps: {
  pool: pg.Pool;
  logger: Logger;
  chains: readonly ChainConfig[];
  healthLogEveryMs?: number;
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
  return {
    health,
    async stop() {
      await healthLog?.close();
      await Promise.all(watchers.map((watcher) => watcher.stop()));
    },
  };
}
