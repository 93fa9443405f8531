import { createRedisEventTarget } from "@graphql-yoga/redis-event-target";
import type { TypedEventTarget } from "@graphql-yoga/typed-event-target";
import IORedis from "ioredis";
import type { StatusUpdate } from "./statusUpdate.js";

/**
 * Pub/sub of status updates between the notifier (worker) and every gateway replica: Redis channels through
 * `@graphql-yoga/redis-event-target` when Redis is configured, an in-process EventTarget otherwise (the
 * embedded mode runs worker and gateway in one process and hands both the same bus).
 */
export type StatusBus = {
  kind: "redis" | "memory";
  publish(update: StatusUpdate): Promise<void>;
  /** Calls `listener` for every update published after it subscribed; returns the unsubscribe. */
  subscribe(listener: (update: StatusUpdate) => void): () => void;
  /** Resolves once this process receives what is published (Redis confirms the channel subscription). */
  ready(): Promise<void>;
  close(): Promise<void>;
};

type StatusEvent = CustomEvent<StatusUpdate>;

export function createStatusBus(options: { redisUrl?: string; prefix?: string } = {}): StatusBus {
  // Redis channels are global to the server: the prefix keeps deployments (and test runs) apart.
  const topic = `${options.prefix ?? "crossfill"}:request.status.updated`;
  const closers: Array<() => Promise<unknown>> = [];
  let target: TypedEventTarget<StatusEvent>;
  let publish: (update: StatusUpdate) => Promise<void>;
  let confirm: () => Promise<void> = async () => undefined;
  if (options.redisUrl) {
    const publishClient = new IORedis(options.redisUrl, { maxRetriesPerRequest: null });
    const subscribeClient = new IORedis(options.redisUrl, { maxRetriesPerRequest: null });
    closers.push(
      async () => publishClient.quit(),
      async () => subscribeClient.quit(),
    );
    target = createRedisEventTarget<StatusEvent>({ publishClient, subscribeClient });
    // Same wire format as the event target's dispatch (JSON on the topic's channel), but awaited, so a
    // failed publish reaches the notifier and its cursor stays put.
    publish = async (update) => {
      await publishClient.publish(topic, JSON.stringify(update));
    };
    // SUBSCRIBE is idempotent: asking again resolves when the server has confirmed the channel.
    confirm = async () => {
      await subscribeClient.subscribe(topic);
    };
  } else {
    const local = new EventTarget() as TypedEventTarget<StatusEvent>;
    target = local;
    publish = async (update) => {
      local.dispatchEvent(new CustomEvent(topic, { detail: update }) as StatusEvent);
    };
  }

  // One listener on the target for the whole process; subscribers are fanned out to here.
  const listeners = new Set<(update: StatusUpdate) => void>();
  const onEvent = (event: StatusEvent) => {
    for (const listener of listeners) {
      try {
        listener(event.detail);
      } catch {
        // one subscriber's failure is its own; the others still get the update
      }
    }
  };
  let attached = false;

  return {
    kind: options.redisUrl ? "redis" : "memory",
    publish: (update) => publish(update),
    subscribe(listener) {
      listeners.add(listener);
      if (!attached) {
        target.addEventListener(topic, onEvent);
        attached = true;
      }
      return () => {
        listeners.delete(listener);
      };
    },
    ready: () => confirm(),
    async close() {
      listeners.clear();
      if (attached) target.removeEventListener(topic, onEvent);
      attached = false;
      for (const close of closers.splice(0)) await close().catch(() => undefined);
    },
  };
}
