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
  /**
   * Calls `listener(false)` when the subscription drops (updates published from then on are lost to this process)
   * and `listener(true)` once Redis has confirmed it again; returns the unsubscribe. The in-process bus never drops.
   */
  onConnection(listener: (subscribed: boolean) => void): () => void;
  close(): Promise<void>;
};

type StatusEvent = CustomEvent<StatusUpdate>;

export function createStatusBus(
  options: {
    redisUrl?: string;
    prefix?: string;
    /** The subscriber's Redis client name. */
    clientName?: string;
    /** A Redis connection's error (the clients reconnect by themselves); without it ioredis prints to stderr. */
    onError?: (error: Error, source: string) => void;
  } = {},
): StatusBus {
  // Redis channels are global to the server: the prefix keeps deployments (and test runs) apart.
  const topic = `${options.prefix ?? "crossfill"}:request.status.updated`;
  const closers: Array<() => Promise<unknown>> = [];
  let target: TypedEventTarget<StatusEvent>;
  let closing = false;
  let publish: (update: StatusUpdate) => Promise<void>;
  let confirm: () => Promise<void> = async () => undefined;
  const connectionListeners = new Set<(subscribed: boolean) => void>();
  const tellConnection = (subscribed: boolean) => {
    for (const listener of connectionListeners) {
      try {
        listener(subscribed);
      } catch {
        // as for updates: one listener's failure is its own
      }
    }
  };
  if (options.redisUrl) {
    const publishClient = new IORedis(options.redisUrl, { maxRetriesPerRequest: null });
    // Named so an operator (or a test) can tell it apart in CLIENT LIST.
    const subscribeClient = new IORedis(options.redisUrl, {
      maxRetriesPerRequest: null,
      connectionName: options.clientName ?? `${options.prefix ?? "crossfill"}:status-bus`,
    });
    for (const [client, source] of [
      [publishClient, "status bus publisher"],
      [subscribeClient, "status bus subscriber"],
    ] as const)
      client.on("error", (error: Error) => options.onError?.(error, source));
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
    // ioredis reconnects and subscribes again by itself, but what was published in between never arrives: whoever
    // keeps state derived from updates must hear of the gap, and of its end only once the channel is confirmed.
    let dropped = false;
    subscribeClient.on("close", () => {
      if (dropped || closing) return;
      dropped = true;
      tellConnection(false);
    });
    subscribeClient.on("ready", () => {
      if (!dropped) return;
      subscribeClient.subscribe(topic).then(
        () => {
          // dropped again before the confirmation: the next ready confirms
          if (!dropped || subscribeClient.status !== "ready") return;
          dropped = false;
          tellConnection(true);
        },
        () => undefined,
      );
    });
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
    onConnection(listener) {
      connectionListeners.add(listener);
      return () => {
        connectionListeners.delete(listener);
      };
    },
    async close() {
      closing = true;
      connectionListeners.clear();
      listeners.clear();
      if (attached) target.removeEventListener(topic, onEvent);
      attached = false;
      for (const close of closers.splice(0)) await close().catch(() => undefined);
    },
  };
}
