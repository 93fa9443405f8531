import { Hono } from "hono";
import type { ChainAdapters } from "../../chains/chainAdapters.js";
import type { ChainRegistry } from "../../chains/chainRegistry.js";
import type { ChainAvailabilityReader } from "../../chains/createChainAvailability.js";
import { etagMatches } from "../http/etagMatches.js";
import { createChainsDocument } from "./createChainsDocument.js";

/**
 * GET /chains: every configured chain as the spec's Chain record, with its operator switches and head as now;
 * served from the body serialised at the last change, with a strong ETag (304 when the client has it).
 */
export function chainRoutes(deps: {
  registry: ChainRegistry;
  adapters: ChainAdapters;
  quoteEngine: { availability: ChainAvailabilityReader };
}): Hono {
  const document = createChainsDocument({ ...deps, availability: deps.quoteEngine.availability });
  return new Hono().get("/chains", async (c) => {
    const { bytes, etag } = await document();
    // no-cache: a client may keep the body but must ask again, as a switch changes it at any time.
    const headers = { ETag: etag, "Cache-Control": "no-cache" };
    if (etagMatches(c.req.header("If-None-Match"), etag)) return c.body(null, 304, headers);
    return c.body(bytes, 200, { ...headers, "Content-Type": "application/json" });
  });
}
