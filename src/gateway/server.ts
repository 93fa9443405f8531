import { randomBytes } from "node:crypto";
import { type ServerType, serve } from "@hono/node-server";
import type { Hono } from "hono";
import { DEFAULT_WEBSOCKET_CONNECTIONS_PER_ADDRESS } from "../config.js";
import type { StatusBus } from "../events/createStatusBus.js";
import { createStatusFanout } from "../events/createStatusFanout.js";
import { getStatusRecord } from "../../schema/statusRecord.js";
import { type RestAppDeps, createRestApp } from "./createRestApp.js";
import { type StatusLookupOptions, createStatusLookup } from "./rest/createStatusLookup.js";
import { createGraphqlServer } from "./graphql/createGraphqlServer.js";
import { createMetrics } from "../metrics/createMetrics.js";
import { GRAPHQL_RATE_LIMIT } from "./graphql/graphqlRateLimit.js";
import { type AuthEnv, apiKeyAuth } from "./http/apiKeyAuth.js";
import { authenticate } from "./http/authenticate.js";
import { upgradeClientAddress } from "./http/clientAddress.js";
import { rateLimit } from "./http/rateLimit.js";
import { type RateLimiter, createPostgresRateLimiter } from "./http/rateLimiter.js";
import { DEFAULT_ROUTE_LIMITS, type RouteLimits } from "./http/routeLimits.js";
import { DEFAULT_V2_THROTTLE } from "../requests/v2Deprecation.js";
import type { ThrottleSchedule } from "../throttleSchedule.js";
import { ensureWebBundle } from "./web/buildWebBundle.js";
import { webRoutes } from "./web/webRoutes.js";
import { createStatusFeed } from "./ws/createStatusFeed.js";
import { limitConnectionsPerAddress } from "./ws/limitConnectionsPerAddress.js";
import { routeUpgrades } from "./ws/routeUpgrades.js";

export type GatewayServerDeps = Omit<
  RestAppDeps,
  "cursorSecret" | "limits" | "routeLimits" | "v2Throttle" | "statusLookup"
> & {
  /** Signs listing cursors; give every replica the same one (restSettings). Random per process otherwise. */
  cursorSecret?: Buffer;
  /**
   * API_KEY_ENCRYPTION_KEY: seals the keys the dashboard creates (createApiKey). Random per process otherwise, and
   * then the worker cannot sign those keys' webhooks: give the gateway the same key as the worker.
   */
  serverKey?: Buffer;
  /** Shared counters (Redis or Postgres); defaults to Postgres on `pool`. */
  rateLimiter?: RateLimiter;
  routeLimits?: RouteLimits;
  v2Throttle?: ThrottleSchedule;
  /** Count X-Forwarded-For's first hop as the client (only behind a proxy that sets it). */
  trustForwardedFor?: boolean;
  /** The clock of rate windows and the v2 retirement; injectable for tests. */
  now?: () => Date;
  host: string;
  port: number;
  /** Status updates from the notifier, for the websocket feed and GraphQL subscriptions. */
  statusBus: StatusBus;
  /** Serve GraphiQL at GET /graphql (development). */
  graphiql?: boolean;
  /** Which webhook URLs setWebhook accepts: public https only unless allowPrivate (the devnet). */
  webhooks?: { allowPrivate: boolean };
  /** Open websocket connections per client address (feed and graphql-ws together). */
  websocketConnectionsPerAddress?: number;
  /**
   * Serve status lookups from memory, kept fresh by `statusBus`. Only where the bus carries the workers' updates
   * (Redis, or one process with the worker): otherwise every lookup reads Postgres.
   */
  statusCache?: StatusLookupOptions;
};

export type GatewayServer = { url: string; port: number; close(): Promise<void> };

/**
 * The gateway's one HTTP server: the REST routes, GraphQL at `/graphql` (HTTP, and graphql-ws upgrades), the
 * `/ws` feed, with the same keys, rate-limit counters and client address everywhere and a cap on open sockets.
 */
export async function startGatewayServer(deps: GatewayServerDeps): Promise<GatewayServer> {
  // One limiter, clock and cursor secret for every surface: REST and GraphQL count the same callers together.
  const rateLimiter = deps.rateLimiter ?? createPostgresRateLimiter(deps.pool);
  const cursorSecret = deps.cursorSecret ?? randomBytes(32);
  const limits = {
    limiter: rateLimiter,
    now: deps.now ?? (() => new Date()),
    trustForwardedFor: deps.trustForwardedFor ?? false,
  };
  const routeLimits: RouteLimits = deps.routeLimits ?? DEFAULT_ROUTE_LIMITS;
  const statusLookup =
    deps.statusCache &&
    createStatusLookup((requestId) => getStatusRecord(deps.pool, requestId), deps.statusBus, deps.statusCache);
  // One registry for REST and GraphQL: the role's, or one of the server's own.
  const metrics = deps.metrics === false ? undefined : (deps.metrics ?? createMetrics("api"));
  const app = createRestApp({
    ...deps,
    metrics: metrics ?? false,
    statusLookup: statusLookup?.get,
    cursorSecret,
    limits,
    routeLimits,
    v2Throttle: deps.v2Throttle ?? DEFAULT_V2_THROTTLE,
  });
  // One bus subscription for the whole gateway, indexed for the websocket feed and GraphQL subscriptions.
  const statusUpdates = createStatusFanout(deps.statusBus);
  // Keys and rate limits as on REST: over HTTP an unknown key is a 401, a caller over its limit a 429 (REST error
  // bodies); over graphql-ws the same counters refuse the operation with extensions.code RATE_LIMITED.
  const graphql = createGraphqlServer({
    db: deps.pool,
    registry: deps.registry,
    quoteEngine: deps.quoteEngine,
    statusUpdates,
    cursorSecret,
    serverKey: deps.serverKey ?? randomBytes(32),
    logger: deps.logger,
    graphiql: deps.graphiql,
    webhookPolicy: { allowPrivate: deps.webhooks?.allowPrivate ?? false },
    websocketLimit: { deps: limits, limit: GRAPHQL_RATE_LIMIT },
    metrics,
    // A keyed createQuote spends the key's quote budget, as POST /quote does.
    fieldLimits: {
      deps: limits,
      byField: {
        requests: routeLimits.requestsV3,
        ...(routeLimits.quote.off ? {} : { createQuote: routeLimits.quote }),
      },
    },
  });
  (app as unknown as Hono<AuthEnv>).on(
    ["GET", "POST"],
    "/graphql",
    apiKeyAuth(deps.pool, { required: false }),
    rateLimit(limits, GRAPHQL_RATE_LIMIT),
    // through newResponse, so the CORS headers prepared for every route are on yoga's answer too
    async (c) => {
      const response = await graphql.fetch(c.req.raw);
      return c.newResponse(response.body, response);
    },
  );
  // The public explorer, a client of /graphql like any other; built on the first start after `npm ci`. A gateway
  // that cannot build it (a read-only install without web/dist) still serves the API.
  try {
    await ensureWebBundle();
    app.route("/", webRoutes());
  } catch (error) {
    deps.logger.error({ err: error }, "the explorer is not served: web/dist is missing and could not be built");
  }
  const server = await new Promise<ServerType>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, hostname: deps.host, port: deps.port }, () => resolve(started));
    started.once("error", reject);
  });
  const feed = createStatusFeed({
    fanout: statusUpdates,
    logger: deps.logger,
    authenticate: (key) => authenticate(deps.pool, key),
  });
  const upgrades = routeUpgrades({ "/ws": feed.handleUpgrade, "/graphql": graphql.handleUpgrade });
  server.on(
    "upgrade",
    limitConnectionsPerAddress(upgrades, {
      max: deps.websocketConnectionsPerAddress ?? DEFAULT_WEBSOCKET_CONNECTIONS_PER_ADDRESS,
      clientAddress: (request) => upgradeClientAddress(request, limits.trustForwardedFor),
    }),
  );
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : deps.port;
  const url = `http://${deps.host}:${port}`;
  deps.logger.info({ url }, "api listening");
  return {
    url,
    port,
    async close() {
      await feed.close();
      await graphql.close();
      statusUpdates.close();
      statusLookup?.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
