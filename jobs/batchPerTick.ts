import DataLoader from "dataloader";

/**
 * Calls made in the same turn of the event loop go to `run` as one batch (at most `maxBatchSize` each): a worker
 * running many jobs at once sends one statement for all of them instead of one each. `run` answers per key, in
 * the keys' order; when it throws, every call of the batch rejects with that error. Nothing is cached.
 */
export function batchPerTick<K, V>(
  run: (keys: readonly K[]) => Promise<V[]>,
  maxBatchSize = 100,
): (key: K) => Promise<V> {
  // setImmediate, not DataLoader's default (next tick): it gathers the calls of every socket read in one poll phase.
  const loader = new DataLoader<K, V>(async (keys) => run(keys), {
    cache: false,
    maxBatchSize,
    batchScheduleFn: (flush) => setImmediate(flush),
  });
  return (key) => loader.load(key);
}
