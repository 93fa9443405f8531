import { hkdfSync } from "node:crypto";
import type pg from "pg";
import type { Config } from "../config.js";
import { type RateLimiter, createPostgresRateLimiter, createRedisRateLimiter } from "./http/rateLimiter.js";
import { DEFAULT_ROUTE_LIMITS, type RouteLimits, withRateLimitOverrides } from "./http/routeLimits.js";
import type { ThrottleSchedule } from "../throttleSchedule.js";
import { apiKeyEncryptionKey } from "../roleSettings.js";

export type RestSettings = {
  cursorSecret: Buffer;
  /** API_KEY_ENCRYPTION_KEY itself: the dashboard's createApiKey seals new keys with it. */
  serverKey: Buffer;
  rateLimiter: RateLimiter;
  /** The routes' limits: the documented defaults with RATE_LIMITS applied. */
  routeLimits: RouteLimits;
  v2Throttle?: ThrottleSchedule;
  trustForwardedFor: boolean;
  /** Open websocket connections per client address (feed and graphql-ws together). */
  websocketConnectionsPerAddress: number;
};

/**
 * What every gateway replica must share for the listing endpoints: the cursor signing secret (derived from the
 * server key, so replicas agree without another setting) and rate-limit counters (Redis when configured, else Postgres).
 * The Redis counters sit under QUEUE_PREFIX like the queues, so deployments sharing one Redis count apart.
 */
export function restSettings(
  config: Config,
  role: string,
  pool: pg.Pool,
  onRedisError?: (error: Error, source: string) => void,
): RestSettings {
  const serverKey = apiKeyEncryptionKey(config, role);
  // Before the limiter: a bad RATE_LIMITS stops the role without leaving a Redis connection open.
  const routeLimits = withRateLimitOverrides(DEFAULT_ROUTE_LIMITS, config.RATE_LIMITS);
  return {
    cursorSecret: Buffer.from(hkdfSync("sha256", serverKey, Buffer.alloc(0), "crossfill listing cursor", 32)),
    serverKey,
    rateLimiter: config.REDIS_URL
      ? createRedisRateLimiter(config.REDIS_URL, `${config.QUEUE_PREFIX}:rl`, onRedisError)
      : createPostgresRateLimiter(pool),
    routeLimits,
    ...(config.V2_THROTTLE_SCHEDULE ? { v2Throttle: config.V2_THROTTLE_SCHEDULE } : {}),
    trustForwardedFor: config.TRUST_FORWARDED_FOR,
    websocketConnectionsPerAddress: config.WEBSOCKET_CONNECTIONS_PER_ADDRESS,
  };
}
