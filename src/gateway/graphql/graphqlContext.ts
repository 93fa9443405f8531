import type pg from "pg";
import type { ChainRegistry } from "../../chains/chainRegistry.js";
import type { StatusBus } from "../../events/createStatusBus.js";
import type { QuoteEngineDeps } from "../../quote/createQuote.js";

/** What every resolver sees: one context per HTTP request or graphql-ws subscription; loaders hang off it. */
export type GraphqlContext = {
  db: Pick<pg.Pool, "query">;
  registry: ChainRegistry;
  quoteEngine: QuoteEngineDeps;
  statusBus: StatusBus;
};
