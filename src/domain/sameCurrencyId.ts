/**
 * Whether two ids name one currency of a chain: hex ids (`0x…`: EVM and the perps exchange) in any case, every other
 * family's exactly as written — a Solana mint's base58 is case-sensitive, so a case variant is another mint (the rule
 * schema/storedAddress stores addresses by).
 */
export const sameCurrencyId = (a: string, b: string): boolean =>
  a === b || (a.startsWith("0x") && b.startsWith("0x") && a.toLowerCase() === b.toLowerCase());
