import type { VmFamily } from "./vmFamily.js";

/**
 * The form a currency id of `family` is indexed and compared by: an address as the family's codec keys it (EVM: lower
 * case; Solana's base58 as written, since base58 is case-sensitive), a native id that is no address as written.
 */
export function currencyKey(family: Pick<VmFamily, "address">, currency: string): string {
  const parsed = family.address.parse(currency);
  return parsed === undefined ? currency : family.address.key(parsed);
}
