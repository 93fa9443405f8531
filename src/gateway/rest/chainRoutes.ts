import { Hono } from "hono";
import type { ChainAdapters } from "../../chains/chainAdapters.js";
import type { ChainRegistry } from "../../chains/chainRegistry.js";
import { toChainRecord } from "./toChainRecord.js";

/** GET /chains: every configured chain as the spec's Chain record (built once: configuration is static). */
export function chainRoutes(deps: { registry: ChainRegistry; adapters: ChainAdapters }): Hono {
  const body = { chains: deps.registry.chains.map((chain) => toChainRecord(deps.adapters.adapter(chain.id))) };
  return new Hono().get("/chains", (c) => c.json(body));
}
