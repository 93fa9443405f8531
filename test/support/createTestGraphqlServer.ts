import { randomBytes } from "node:crypto";
import type pg from "pg";
import pino from "pino";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { chainConfigSchema } from "../../src/chains/chainConfig.js";
import { createChainRegistry } from "../../src/chains/chainRegistry.js";
import { createChainAvailability } from "../../src/chains/createChainAvailability.js";
import type { StatusFanout } from "../../src/events/createStatusFanout.js";
import { type GraphqlServerOptions, createGraphqlServer } from "../../src/gateway/graphql/createGraphqlServer.js";
import { createStaticPriceSource } from "../../src/pricing/priceSource.js";
import { createSolverInventory } from "../../src/quote/solverInventory.js";
import { solverAdapters } from "../../src/roles/solverAdapters.js";
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

/** The chains, adapters (a random solver) and quote engine of GRAPHQL_TEST_CHAINS (no quote is ever saved). */
export function createTestQuoteEngine(db: Pick<pg.Pool, "query">) {
  const registry = createChainRegistry(GRAPHQL_TEST_CHAINS);
  const adapters = solverAdapters(GRAPHQL_TEST_CHAINS, { evm: privateKeyToAccount(generatePrivateKey()) });
  const quoteEngine: QuoteEngineDeps = {
    registry,
    adapters,
    prices: createStaticPriceSource({ ETH: "3000", USDC: "1" }),
    inventory: createSolverInventory(adapters),
    saveRequest: async () => undefined,
    settings: { serviceFeeBps: 5n, defaultSlippageBps: 50n, quoteTtlSeconds: 600 },
    availability: createChainAvailability(db),
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
}) {
  const { registry, quoteEngine } = createTestQuoteEngine(options.db);
  return createGraphqlServer({
    db: options.db,
    registry,
    statusUpdates: options.statusUpdates,
    cursorSecret: randomBytes(32),
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" }),
    graphiql: options.graphiql,
    webhookPolicy: options.webhookPolicy ?? { allowPrivate: false },
    websocketLimit: options.websocketLimit,
    fieldLimits: options.fieldLimits,
    keyRecheckMs: options.keyRecheckMs,
    quoteEngine,
  });
}
