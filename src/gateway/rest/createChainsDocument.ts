import { createHash } from "node:crypto";
import type { ChainAdapters } from "../../chains/chainAdapters.js";
import type { ChainRegistry } from "../../chains/chainRegistry.js";
import type { ChainAvailability, ChainAvailabilityReader } from "../../chains/createChainAvailability.js";
import { toChainRecord } from "./toChainRecord.js";

/** The serialised `GET /chains` body, encoded once (the server writes the bytes as they are), and its strong tag. */
export type ChainsDocument = { body: string; bytes: Uint8Array<ArrayBuffer>; etag: string };

const availabilityKey = (a: ChainAvailability) =>
  `${a.disabled}|${a.depositEnabled}|${a.partialDisableLimitUsd}|${a.blockProductionLagging}|${a.reason}|${a.solverCurrencies.join(",")}`;

/**
 * `GET /chains` serialised once per change. The configured part of each record never changes in a process; only
 * the availability (operator switches, head lagging, what the solver holds) does, so the body is rebuilt and hashed only when that
 * availability differs from the one the last body was built from.
 */
export function createChainsDocument(deps: {
  registry: ChainRegistry;
  adapters: ChainAdapters;
  availability: ChainAvailabilityReader;
}): () => Promise<ChainsDocument> {
  let last: { key: string; document: ChainsDocument } | undefined;
  return async () => {
    const availabilities = await Promise.all(deps.registry.chains.map((chain) => deps.availability(chain)));
    const key = availabilities.map(availabilityKey).join(";");
    if (last?.key === key) return last.document;
    const chains = deps.registry.chains.map((chain, i) =>
      toChainRecord(chain, deps.adapters.quoterOf(chain.id), availabilities[i], deps.registry.family(chain)),
    );
    const body = JSON.stringify({ chains });
    const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;
    last = { key, document: { body, bytes: new TextEncoder().encode(body), etag } };
    return last.document;
  };
}
