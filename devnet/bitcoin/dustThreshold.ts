import { scriptPubKeyType } from "./scriptPubKeyInfo.js";

// bitcoind's GetDustThreshold at the default dust relay fee of 3 sat/vB: the cost of creating the output
// and of the input that will spend it (148 bytes for a legacy input, 67 vbytes for a witness one).
const dustRelayFeePerVbyte = 3n;

/** Smallest value an output with this script may carry (546 for P2PKH, 294 for P2WPKH, 330 for P2TR). */
export function dustThreshold(script: Uint8Array): bigint {
  const type = scriptPubKeyType(script);
  if (type === "op_return") return 0n; // unspendable: never dust
  const outputSize = 8 + (script.length < 0xfd ? 1 : 3) + script.length;
  const witness = type === "v0_p2wpkh" || type === "v0_p2wsh" || type === "v1_p2tr";
  const spendSize = witness ? 32 + 4 + 1 + Math.floor(107 / 4) + 4 : 32 + 4 + 1 + 107 + 4;
  return BigInt(outputSize + spendSize) * dustRelayFeePerVbyte;
}
