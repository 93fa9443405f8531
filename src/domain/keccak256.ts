import { createKeccak, type IHasher } from "hash-wasm";
import { type Hex, keccak256 as keccak256Js } from "viem";

let hasher: IHasher | undefined;
/** Resolves once the WebAssembly Keccak is ready; until then {@link keccak256} hashes in JavaScript. */
export const keccakReady: Promise<void> = createKeccak(256).then((ready) => {
  hasher = ready;
});

/**
 * Keccak-256 of hex bytes, as viem's `keccak256` returns it. The order id hashes a 1–2 kB ABI encoding on every
 * quote, where the WebAssembly Keccak is about ten times faster than the pure-JavaScript one viem uses.
 */
export function keccak256(data: Hex): Hex {
  if (!hasher) return keccak256Js(data);
  return `0x${hasher
    .init()
    .update(Buffer.from(data.slice(2), "hex"))
    .digest("hex")}`;
}
