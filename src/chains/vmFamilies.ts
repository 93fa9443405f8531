import type { VmType } from "./adapter.js";
import type { VmFamily } from "./vmFamily.js";
import type { ChainConfig } from "./chainConfig.js";
import { FAMILIES } from "./families.js";
import { familyOfChain } from "./familyOfChain.js";

/**
 * Every VM family's address and hash formats, configured or not (of FAMILIES). Bitcoin takes the addresses of
 * every network here (a wallet filter on the devnet is a regtest address); a chain's own fields use `familyOf`.
 */
export const VM_FAMILIES = Object.fromEntries(FAMILIES.map((family) => [family.vmType, family.codec])) as Readonly<
  Record<VmType, VmFamily>
>;

/** The family as one configured chain reads addresses: a Bitcoin chain only those of its own network. */
export function familyOf(chain: ChainConfig): VmFamily {
  return familyOfChain(chain).codecOf(chain);
}

/**
 * The comparison key of an address that one of `families` accepts, for fields bound to no chain (a wallet filter
 * across chains); undefined when none does.
 */
export function anyAddressKey(value: string, families: readonly VmFamily[] = Object.values(VM_FAMILIES)) {
  for (const family of families) {
    const parsed = family.address.parse(value);
    if (parsed !== undefined) return family.address.key(parsed);
  }
  return undefined;
}

/** A transaction hash of any family, in that family's canonical form; undefined when none takes it. */
export function anyTransactionHash(value: string): string | undefined {
  for (const family of Object.values(VM_FAMILIES)) {
    const parsed = family.parseTransactionHash(value);
    if (parsed !== undefined) return parsed;
  }
  return undefined;
}
