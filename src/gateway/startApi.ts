import type pg from "pg";
import type { Logger } from "pino";
import { findRegenerableDepositAddress, nextDepositAddressIndex } from "../../schema/depositAddresses.js";
import { sponsorBalance } from "../../schema/sponsorLedger.js";
import { batchRequestInserts } from "../../schema/batchRequestInserts.js";
import type { ChainFamily } from "../chains/chainFamily.js";
import type { ChainConfig } from "../chains/chainConfig.js";
import type { ChainAdapters } from "../chains/chainAdapters.js";
import { createChainRegistry } from "../chains/chainRegistry.js";
import { createChainAvailability } from "../chains/createChainAvailability.js";
import type { StatusBus } from "../events/createStatusBus.js";
import type { StatusLookupOptions } from "./rest/createStatusLookup.js";
import { type GatewayServer, startGatewayServer } from "./server.js";
import type { PriceSource } from "../pricing/priceSource.js";
import { owedBySolver } from "../../schema/solverBalances.js";
import { createSolverInventory } from "../quote/solverInventory.js";
import type { RestSettings } from "./restSettings.js";
import type { RouteLimits } from "./http/routeLimits.js";
import type { ReadinessCheck } from "../health/readinessProbe.js";
import type { Metrics } from "../metrics/createMetrics.js";

export type ApiDeps = {
  pool: pg.Pool;
  chains: readonly ChainConfig[];
  /** The chain families the chains are read by (FAMILIES; a test composition adds its own family beside them). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each family reads only chains of its vmType
  families?: readonly ChainFamily<any>[];
  /** The chains' adapters with the gateway's keys (the composition root makes them with each family's factory). */
  adapters: ChainAdapters;
  logger: Logger;
  host: string;
  port: number;
  /** The price layer (createConfiguredPriceSource): one per process, its cache shared by every quote. */
  prices: PriceSource;
  settings: {
    serviceFeeBps: bigint;
    defaultSlippageBps: bigint;
    quoteTtlSeconds: number;
    overpaymentToleranceBps?: bigint;
    sponsoredAppFeeMaxBps?: bigint;
  };
  /** Status updates from the notifier, for the websocket feed and GraphQL subscriptions. */
  statusBus: StatusBus;
  /** Listing settings shared by replicas: cursor secret, rate-limit counters, v2 schedule (restSettings). */
  rest?: RestSettings;
  /** The routes' limits where no `rest` gives them (tests); the documented defaults otherwise. */
  routeLimits?: RouteLimits;
  /** Serve GraphiQL at GET /graphql (development). */
  graphiql?: boolean;
  /** Which webhook URLs setWebhook accepts: public https only unless allowPrivate (the devnet). */
  webhooks?: { allowPrivate: boolean };
  /** Status lookups from memory; only when `statusBus` carries the workers' updates (see GatewayServerDeps). */
  statusCache?: StatusLookupOptions;
  /** Seals keys created over GraphQL (default: `rest.serverKey`); the worker's webhooks are signed with them. */
  serverKey?: Buffer;
  /** What `/readyz` asks besides Postgres and each chain's node (Redis, where the role has it). */
  readinessChecks?: readonly ReadinessCheck[];
  /** The role's Prometheus registry, served at `/metrics`; `false`: none (nothing observed, no `/metrics`). */
  metrics?: Metrics | false;
  /** The clock of rate windows and the v2 retirement (tests read v2 before its sunset). */
  now?: () => Date;
};

export type RunningApi = GatewayServer;

/** The gateway role: chains, prices and the solver's inventory for the quote engine, then the gateway's server. */
export async function startApi(deps: ApiDeps): Promise<RunningApi> {
  const registry = createChainRegistry(deps.chains, deps.families);
  const { adapters } = deps;
  const quoteEngine = {
    registry,
    adapters,
    prices: deps.prices,
    inventory: createSolverInventory(adapters, {
      owed: (chainId: number, currency: string) => owedBySolver(deps.pool, chainId, currency),
    }),
    saveRequest: batchRequestInserts(deps.pool),
    settings: deps.settings,
    availability: createChainAvailability(deps.pool),
    sponsorBalance: (integrator: string) => sponsorBalance(deps.pool, integrator),
    depositAddresses: {
      next: () => nextDepositAddressIndex(deps.pool),
      regenerable: (route: Parameters<typeof findRegenerableDepositAddress>[1]) =>
        findRegenerableDepositAddress(deps.pool, route),
    },
  };
  return startGatewayServer({
    pool: deps.pool,
    registry,
    adapters,
    logger: deps.logger,
    quoteEngine,
    ...(deps.routeLimits ? { routeLimits: deps.routeLimits } : {}),
    ...(deps.now ? { now: deps.now } : {}),
    ...deps.rest,
    ...(deps.serverKey ? { serverKey: deps.serverKey } : {}),
    host: deps.host,
    port: deps.port,
    statusBus: deps.statusBus,
    graphiql: deps.graphiql,
    webhooks: deps.webhooks,
    statusCache: deps.statusCache,
    readinessChecks: deps.readinessChecks,
    metrics: deps.metrics,
  });
}
