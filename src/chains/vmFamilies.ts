import type { VmFamily, VmType } from "./adapter.js";
import { evmFamily } from "./evm/evmFamily.js";

/** Every VM family the code knows, configured or not; a new family is one more entry. */
export const VM_FAMILIES: Readonly<Record<VmType, VmFamily>> = { evm: evmFamily };

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
