import type { PublicKey, VersionedMessage } from "@solana/web3.js";

export const memoProgramIds = [
  "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr", // SPL Memo v2
  "Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo", // SPL Memo v1
];

/**
 * The `memo` field of `getSignaturesForAddress` as Agave fills it: each top-level Memo instruction as
 * `"[<byte length>] <text>"`, joined by `"; "`; null without one.
 */
export function agaveMemo(message: VersionedMessage, accountKeys: PublicKey[]): string | null {
  const memos = message.compiledInstructions
    .filter((ix) => memoProgramIds.includes(accountKeys[ix.programIdIndex].toBase58()))
    .map((ix) => `[${ix.data.length}] ${memoText(ix.data)}`);
  return memos.length ? memos.join("; ") : null;
}

/** A memo's UTF-8 text, or Agave's placeholder when the bytes are not UTF-8. */
export function memoText(data: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(data);
  } catch {
    return "(unparseable)";
  }
}
