import type { QueueObserver } from "../src/metrics/observeQueues.js";
import type { QueueBackend } from "./queueBackend.js";

/** The backend, with every queue the worker creates handed to `observer` (its job counts become metrics). */
export function observedQueueBackend(backend: QueueBackend, observer: QueueObserver): QueueBackend {
  return {
    ...backend,
    createQueue<T>(name: string) {
      const queue = backend.createQueue<T>(name);
      observer.watch(queue);
      return queue;
    },
  };
}
