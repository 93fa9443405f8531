import type { StatusBus } from "./createStatusBus.js";
import { type StatusUpdate, statusUpdateKeys } from "./statusUpdate.js";

export type StatusListener = (update: StatusUpdate) => void;

export type StatusFanout = {
  add(key: string, listener: StatusListener): void;
  remove(key: string, listener: StatusListener): void;
  close(): void;
};

/**
 * One bus subscription per gateway, indexed by key: an update costs a few map look-ups however many
 * subscribers there are, and a listener registered under several matching keys is called once.
 */
export function createStatusFanout(bus: StatusBus): StatusFanout {
  const index = new Map<string, Set<StatusListener>>();
  const stop = bus.subscribe((update) => {
    const targets = new Set<StatusListener>();
    for (const key of statusUpdateKeys(update)) for (const listener of index.get(key) ?? []) targets.add(listener);
    for (const listener of targets) {
      try {
        listener(update);
      } catch {
        // a subscriber's failure stays its own
      }
    }
  });
  return {
    add(key, listener) {
      let set = index.get(key);
      if (!set) index.set(key, (set = new Set()));
      set.add(listener);
    },
    remove(key, listener) {
      const set = index.get(key);
      set?.delete(listener);
      if (set?.size === 0) index.delete(key);
    },
    close() {
      stop();
      index.clear();
    },
  };
}
