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
