import { PublicKey, TransactionInstruction } from "@solana/web3.js";

/** SPL Memo v2, which deposits name their order with; v1 is read too (an older wallet may still send it). */
export const MEMO_PROGRAM_ID = "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr";
export const MEMO_PROGRAM_IDS: readonly string[] = [MEMO_PROGRAM_ID, "Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo"];

/** A Memo instruction with `text` and no signer accounts (the fee payer's signature is enough). */
export function memoInstruction(text: string): TransactionInstruction {
  return new TransactionInstruction({
    programId: new PublicKey(MEMO_PROGRAM_ID),
    keys: [],
    data: Buffer.from(text, "utf8"),
  });
}

/** The order id a memo's text names (`0x` and 64 hex digits, read in lower case); undefined for any other text. */
export function parseOrderMemo(text: string): string | undefined {
  return /^0x[0-9a-fA-F]{64}$/.test(text) ? text.toLowerCase() : undefined;
}
