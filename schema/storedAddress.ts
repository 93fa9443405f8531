/**
 * An address as it is stored: EVM addresses (`0x…`) in lower case, every other family's exactly as its codec
 * canonicalised it — a base58 Bitcoin address's case is part of its checksum (bech32 is lower case already).
 */
export const storedAddress = (value: string): string => (value.startsWith("0x") ? value.toLowerCase() : value);

/** storedAddress in SQL, for comparing columns written before it (or by hand) in another case: EVM folded, the rest as is. */
export const storedAddressSql = (expression: string): string =>
  `(CASE WHEN left(${expression}, 2) = '0x' THEN lower(${expression}) ELSE ${expression} END)`;
