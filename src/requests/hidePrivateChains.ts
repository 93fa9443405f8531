import type { RequestFilter } from "../../schema/requestFilter.js";
import type { ChainRegistry } from "../chains/chainRegistry.js";
import { InvalidInputError } from "../domain/errors.js";

/**
 * Leaves the requests of private chains (a chains-file entry with `privateId`) out of a listing, but for the chains
 * whose UUID the client names in `privateChainsToInclude`. A UUID that names no private chain here is refused: the
 * client would otherwise believe it sees a chain it does not.
 */
export function hidePrivateChains(
  filter: RequestFilter,
  registry: Pick<ChainRegistry, "chains">,
  included: readonly string[],
  parameter = "privateChainsToInclude",
): RequestFilter {
  const privateChains = registry.chains.filter((chain) => chain.privateId !== undefined);
  const known = new Set(privateChains.map((chain) => chain.privateId!.toLowerCase()));
  const unknown = included.filter((id) => !known.has(id.toLowerCase()));
  if (unknown.length > 0)
    throw new InvalidInputError("INVALID_INPUT", `${parameter}: ${unknown.join(", ")} names no private chain`);
  const wanted = new Set(included.map((id) => id.toLowerCase()));
  const hidden = privateChains.filter((chain) => !wanted.has(chain.privateId!.toLowerCase())).map((chain) => chain.id);
  if (hidden.length === 0) return filter;
  // A negated chainId condition: neither side of the request is a hidden chain (the count projections answer it too).
  return { ...filter, conditions: [...filter.conditions, { field: "chainId", negate: true, values: hidden }] };
}
