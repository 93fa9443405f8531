import type { ChainConfig } from "./chainConfig.js";
import type { ChainFamily } from "./chainFamily.js";
import { FAMILIES } from "./families.js";

/**
 * The family of a chain among `families` (FAMILIES, plus those a test composition adds); a chain of no listed
 * family is a programming error (the chains file only parses entries of FAMILIES).
 */
export function familyOfChain(
  chain: { vmType: string },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each family reads only chains of its vmType
  families: readonly ChainFamily<any>[] = FAMILIES,
): ChainFamily<ChainConfig> {
  const family = families.find((candidate) => candidate.vmType === chain.vmType);
  if (!family) throw new Error(`no chain family ${chain.vmType}`);
  return family;
}

/** The chains among `chains` of the family `vmType` names (what a role started per family is given: its indexer). */
export function chainsOfFamily<C extends { vmType: string }>(chains: readonly C[], vmType: string): C[] {
  return chains.filter((chain) => chain.vmType === vmType);
}
