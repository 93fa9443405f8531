import { Hono } from "hono";
import type { ChainAdapters } from "../../chains/chainAdapters.js";
import type { ChainRegistry } from "../../chains/chainRegistry.js";
import type { ChainAvailabilityReader } from "../../chains/createChainAvailability.js";
import { toChainRecord } from "./toChainRecord.js";

/** GET /chains: every configured chain as the spec's Chain record, with its operator switches and head as now. */
export function chainRoutes(deps: {
  registry: ChainRegistry;
  adapters: ChainAdapters;
  quoteEngine: { availability: ChainAvailabilityReader };
}): Hono {
  return new Hono().get("/chains", async (c) => {
    const chains = await Promise.all(
      deps.registry.chains.map(async (chain) =>
        toChainRecord(chain, deps.adapters.find(chain.id), await deps.quoteEngine.availability(chain)),
      ),
    );
    return c.json({ chains });
  });
}
