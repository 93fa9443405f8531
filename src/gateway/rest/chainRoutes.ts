import { Hono } from "hono";
import type { ChainRegistry } from "../../chains/chainRegistry.js";
import { toChainRecord } from "./toChainRecord.js";

/** GET /chains: every configured chain as the spec's Chain record (built once: configuration is static). */
export function chainRoutes(deps: { registry: ChainRegistry; solverAddress: string }): Hono {
  const body = { chains: deps.registry.chains.map((chain) => toChainRecord(chain, deps.solverAddress)) };
  return new Hono().get("/chains", (c) => c.json(body));
}
