import { randomBytes } from "node:crypto";
import { type ServerType, serve } from "@hono/node-server";
import type { Hono } from "hono";
import type pg from "pg";
import type { Logger } from "pino";
import { type NewRequest, insertRequest } from "../../schema/requests.js";
import type { ChainConfig } from "../chains/chainConfig.js";
import type { EvmSolver } from "../chains/evm/evmSolver.js";
import { createChainRegistry } from "../chains/chainRegistry.js";
import { createChainAvailability } from "../chains/createChainAvailability.js";
import type { StatusBus } from "../events/createStatusBus.js";
import { createStatusFanout } from "../events/createStatusFanout.js";
import { createRestApp } from "../gateway/createRestApp.js";
import { createGraphqlServer } from "../gateway/graphql/createGraphqlServer.js";
import { GRAPHQL_RATE_LIMIT } from "../gateway/graphql/graphqlRateLimit.js";
import { type AuthEnv, apiKeyAuth, authenticate } from "../gateway/rest/apiKeyAuth.js";
import { DEFAULT_ROUTE_LIMITS, rateLimit, upgradeClientAddress } from "../gateway/rest/rateLimit.js";
import { createStatusFeed } from "../gateway/ws/createStatusFeed.js";
import { DEFAULT_WEBSOCKET_CONNECTIONS_PER_ADDRESS } from "../config.js";
import { limitConnectionsPerAddress } from "../gateway/ws/limitConnectionsPerAddress.js";
import { routeUpgrades } from "../gateway/ws/routeUpgrades.js";
import { createStaticPriceSource } from "../pricing/priceSource.js";
import { createPostgresRateLimiter } from "../rateLimits/rateLimiter.js";
import { createSolverInventory } from "../quote/solverInventory.js";
import { solverAdapters } from "./solverAdapters.js";
import type { RestSettings } from "./restSettings.js";

export type ApiDeps = {
  pool: pg.Pool;
  chains: readonly ChainConfig[];
  solver: EvmSolver;
  logger: Logger;
  host: string;
  port: number;
  settings: {
    prices: Record<string, string>;
    serviceFeeBps: bigint;
    defaultSlippageBps: bigint;
    quoteTtlSeconds: number;
  };
  /** Status updates from the notifier, for the websocket feed and GraphQL subscriptions. */
  statusBus: StatusBus;
  /** Listing settings shared by replicas: cursor secret, rate-limit counters, v2 schedule (restSettings). */
  rest?: RestSettings;
  /** Serve GraphiQL at GET /graphql (development). */
  graphiql?: boolean;
  /** Which webhook URLs setWebhook accepts: public https only unless allowPrivate (the devnet). */
  webhooks?: { allowPrivate: boolean };
};

export type RunningApi = { url: string; port: number; close(): Promise<void> };

/** The gateway process: REST routes, GraphQL (HTTP and graphql-ws) and the websocket feed over one HTTP server. */
export async function startApi(deps: ApiDeps): Promise<RunningApi> {
  const registry = createChainRegistry(deps.chains);
  const adapters = solverAdapters(deps.chains, { evm: deps.solver });
  const quoteEngine = {
    registry,
    adapters,
    prices: createStaticPriceSource(deps.settings.prices),
    inventory: createSolverInventory(adapters),
    saveRequest: (request: NewRequest) => insertRequest(deps.pool, request),
    settings: deps.settings,
    availability: createChainAvailability(deps.pool),
  };
  const app = createRestApp({
    pool: deps.pool,
    registry,
    adapters,
    logger: deps.logger,
    ...deps.rest,
    quoteEngine,
  });
  // One bus subscription for the whole gateway, indexed for the websocket feed and GraphQL subscriptions.
  const statusUpdates = createStatusFanout(deps.statusBus);
  // Keys and rate limits as on REST: over HTTP an unknown key is a 401, a caller over its limit a 429 (REST error
  // bodies); over graphql-ws the same counters refuse the operation with extensions.code RATE_LIMITED.
  const graphqlRateLimits = {
    limiter: deps.rest?.rateLimiter ?? createPostgresRateLimiter(deps.pool),
    now: () => new Date(),
    trustForwardedFor: deps.rest?.trustForwardedFor ?? false,
  };
  const graphql = createGraphqlServer({
    db: deps.pool,
    registry,
    quoteEngine,
    statusUpdates,
    cursorSecret: deps.rest?.cursorSecret ?? randomBytes(32),
    logger: deps.logger,
    graphiql: deps.graphiql,
    webhookPolicy: { allowPrivate: deps.webhooks?.allowPrivate ?? false },
    websocketLimit: { deps: graphqlRateLimits, limit: GRAPHQL_RATE_LIMIT },
    fieldLimits: { deps: graphqlRateLimits, byField: { requests: DEFAULT_ROUTE_LIMITS.requestsV3 } },
  });
  (app as unknown as Hono<AuthEnv>).on(
    ["GET", "POST"],
    "/graphql",
    apiKeyAuth(deps.pool, { required: false }),
    rateLimit(graphqlRateLimits, GRAPHQL_RATE_LIMIT),
    (c) => graphql.fetch(c.req.raw),
  );
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
      max: deps.rest?.websocketConnectionsPerAddress ?? DEFAULT_WEBSOCKET_CONNECTIONS_PER_ADDRESS,
      clientAddress: (request) => upgradeClientAddress(request, graphqlRateLimits.trustForwardedFor),
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
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
