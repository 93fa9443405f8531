import bs58 from "bs58";
import type { VmFamily } from "../vmFamily.js";

/** How currencies name native SOL (the spec's id): the System Program's address, never an address to pay. */
export const SOLANA_NATIVE_CURRENCY = "11111111111111111111111111111111";

/**
 * The bytes of `value` when it is base58 in its one canonical spelling and decodes to `length` bytes; undefined
 * otherwise. Base58 is case-sensitive and has no separators; re-encoding refuses spellings no encoder writes.
 */
export function decodeBase58(value: string, length: number): Uint8Array | undefined {
  // 32 bytes are at most 44 characters, 64 at most 88: anything longer is refused before decoding.
  if (value.length === 0 || value.length > Math.ceil(length * 1.37) + 1) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = bs58.decode(value);
  } catch {
    return undefined;
  }
  return bytes.length === length && bs58.encode(bytes) === value ? bytes : undefined;
}

/**
 * Solana: addresses are 32-byte public keys in base58 (compared as written: base58 has one spelling of each key),
 * transactions are named by their first signature, 64 bytes in base58. The native id (the System Program) is no
 * address a user pays or is paid at.
 */
export const svmFamily: VmFamily<"svm"> = {
  vmType: "svm",
  nativeCurrency: SOLANA_NATIVE_CURRENCY,
  address: {
    parse: (value) => (value !== SOLANA_NATIVE_CURRENCY && decodeBase58(value, 32) !== undefined ? value : undefined),
    key: (address) => address,
  },
  parseTransactionHash: (value) => (decodeBase58(value, 64) !== undefined ? value : undefined),
};
