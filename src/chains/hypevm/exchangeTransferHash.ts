import { concat, type Hex, keccak256, pad, toHex } from "viem";

/**
 * The hash a signed transfer has on the devnet exchange's ledger, and so the one the solver stores before it sends:
 * keccak256 of its signature (r and s each padded to 32 bytes, then v), unique to the action it signs. The real
 * exchange names transfers by its own hash; the service finds its transfers there by (signer, nonce), not by this.
 */
export function exchangeTransferHash(signature: { r: Hex; s: Hex; v: number }): Hex {
  return keccak256(
    concat([pad(signature.r, { size: 32 }), pad(signature.s, { size: 32 }), toHex(signature.v, { size: 1 })]),
  );
}
