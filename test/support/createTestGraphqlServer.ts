import { randomBytes } from "node:crypto";
import type pg from "pg";
import pino from "pino";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { type ChainConfig, chainConfigSchema } from "../../src/chains/chainConfig.js";
import type { EvmSolver } from "../../src/chains/evm/evmSolver.js";
import { createChainRegistry } from "../../src/chains/chainRegistry.js";
import { createChainAvailability } from "../../src/chains/createChainAvailability.js";
import type { StatusFanout } from "../../src/events/createStatusFanout.js";
import { type GraphqlServerOptions, createGraphqlServer } from "../../src/gateway/graphql/createGraphqlServer.js";
import { sponsorBalance } from "../../schema/sponsorLedger.js";
import { createStaticPriceSource } from "../../src/pricing/priceSource.js";
import { createSolverInventory } from "../../src/quote/solverInventory.js";
import { familyAdapters } from "../../apps/families/familyAdapters.js";
import type { QuoteEngineDeps } from "../../src/quote/createQuote.js";
import type { WebhookPolicy } from "../../src/webhooks/validateWebhookUrl.js";

export const TEST_USDC = "0x5FbDB2315678afecb367f032d93F642f64180aa3";

/** Two configured chains whose RPCs nobody answers: enough for everything GraphQL serves but quotes. */
export const GRAPHQL_TEST_CHAINS = [31338, 31339].map((id, index) =>
  chainConfigSchema.parse({
    id,
    name: `devnet-${index}`,
    rpcUrl: `http://127.0.0.1:${9 + index}`,
    depository: "0x0000000000000000000000000000000000000001",
    receiver: "0x0000000000000000000000000000000000000002",
    currencies: [{ symbol: "USDC", address: TEST_USDC, decimals: 6 }],
  }),
);

/**
 * The registry, adapters and quote engine of test chains: GRAPHQL_TEST_CHAINS, a random solver, static prices and no
 * quote saved unless told otherwise.
 */
export function createTestQuoteEngine(
  db: Pick<pg.Pool, "query">,
  options: {
    chains?: readonly ChainConfig[];
    solver?: EvmSolver;
    saveRequest?: QuoteEngineDeps["saveRequest"];
    prices?: QuoteEngineDeps["prices"];
  } = {},
) {
  const chains = options.chains ?? GRAPHQL_TEST_CHAINS;
  const registry = createChainRegistry(chains);
  const adapters = familyAdapters(chains, {
    evm: { solver: options.solver ?? privateKeyToAccount(generatePrivateKey()) },
  });
  const quoteEngine: QuoteEngineDeps = {
    registry,
    adapters,
    prices: options.prices ?? createStaticPriceSource({ ETH: "3000", WETH: "3000", USDC: "1" }),
    inventory: createSolverInventory(adapters),
    saveRequest: options.saveRequest ?? (async () => undefined),
    settings: { serviceFeeBps: 5n, defaultSlippageBps: 50n, quoteTtlSeconds: 600 },
    availability: createChainAvailability(db),
    sponsorBalance: (integrator) => sponsorBalance(db, integrator),
  };
  return { registry, adapters, quoteEngine };
}

/** The GraphQL server over a real database (through `db`, which tests may wrap to count queries). */
export function createTestGraphqlServer(options: {
  db: Pick<pg.Pool, "query">;
  statusUpdates: StatusFanout;
  graphiql?: boolean;
  webhookPolicy?: WebhookPolicy;
  websocketLimit?: GraphqlServerOptions["websocketLimit"];
  fieldLimits?: GraphqlServerOptions["fieldLimits"];
  keyRecheckMs?: number;
  chains?: readonly ChainConfig[];
  serverKey?: Buffer;
}) {
  const { registry, quoteEngine } = createTestQuoteEngine(options.db, { chains: options.chains });
  return createGraphqlServer({
    db: options.db,
    registry,
    statusUpdates: options.statusUpdates,
    cursorSecret: randomBytes(32),
    serverKey: options.serverKey ?? randomBytes(32),
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" }),
    graphiql: options.graphiql,
    webhookPolicy: options.webhookPolicy ?? { allowPrivate: false },
    websocketLimit: options.websocketLimit,
    fieldLimits: options.fieldLimits,
    keyRecheckMs: options.keyRecheckMs,
    quoteEngine,
  });
}
