import { Redis } from "ioredis";
import type { ReadinessCheck } from "./readinessProbe.js";

/**
 * Redis answers PING, on a connection of the check's own: it fails at once while Redis is away (no offline queue)
 * instead of waiting for a reconnect.
 */
export function createRedisReadiness(redisUrl: string): ReadinessCheck & { close(): Promise<void> } {
  const redis = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  // Reconnects on its own; the failure shows in /readyz, not as an unhandled event.
  redis.on("error", () => undefined);
  return {
    name: "redis",
    check: async () => {
      await redis.ping();
    },
    close: async () => {
      redis.disconnect();
    },
  };
}
