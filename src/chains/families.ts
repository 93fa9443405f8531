import { bitcoinChainFamily } from "./bitcoin/bitcoinChainFamily.js";
import type { ChainConfig } from "./chainConfig.js";
import type { ChainFamily } from "./chainFamily.js";
import { evmChainFamily } from "./evm/evmChainFamily.js";

/**
 * Every chain family Crossfill carries: the one place a family is registered. The chains file, `VmType`, the
 * registry, quote validation and the roles iterate it; a new family is one more entry.
 */
export const FAMILIES = [evmChainFamily, bitcoinChainFamily] as const;

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
