import { getAddress, type Hex, isHex } from "viem";

/**
 * The id the service stores for a transfer it signed, until the exchange names it: the exchange's hash depends on the
 * block and index it commits the transfer at (it cannot be known before), so the stored id is the signer's address
 * and the transfer's nonce, 32 bytes like a hash (20 + 12, the nonce big-endian), which finds the transfer again in
 * the signer's ledger (`parseExchangeTransferId`).
 */
export function exchangeTransferId(signer: string, nonce: number): Hex {
  return `0x${getAddress(signer).slice(2).toLowerCase()}${nonce.toString(16).padStart(24, "0")}`;
}

/** The signer and nonce of a stored transfer id (`exchangeTransferId`); undefined for anything else. */
export function parseExchangeTransferId(id: string): { signer: string; nonce: number } | undefined {
  if (!isHex(id) || id.length !== 66) return undefined;
  const nonce = Number.parseInt(id.slice(42), 16);
  if (!Number.isSafeInteger(nonce)) return undefined;
  return { signer: `0x${id.slice(2, 42).toLowerCase()}`, nonce };
}
