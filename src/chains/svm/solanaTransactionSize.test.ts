import { Keypair, SystemProgram, TransactionMessage, VersionedTransaction } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { memoInstruction } from "./memoInstruction.js";
import { SOLANA_MAX_TRANSACTION_SIZE, solanaTransactionSize } from "./solanaTransactionSize.js";

const payer = Keypair.generate().publicKey;
const blockhash = "11111111111111111111111111111111";
const messageOf = (instructionCount: number, memoBytes: number) =>
  new TransactionMessage({
    payerKey: payer,
    recentBlockhash: blockhash,
    instructions: Array.from({ length: instructionCount }, (_, i) =>
      i === 0
        ? memoInstruction("m".repeat(memoBytes))
        : SystemProgram.transfer({ fromPubkey: payer, toPubkey: Keypair.generate().publicKey, lamports: i }),
    ),
  }).compileToV0Message();

describe("solanaTransactionSize", () => {
  it("counts what a signed v0 transaction takes on the wire, byte for byte", () => {
    for (const [count, memo] of [
      [1, 66],
      [2, 66],
      [5, 200],
      [1, 300],
    ] as const) {
      const message = messageOf(count, memo);
      expect(solanaTransactionSize(message), `${count} instructions`).toBe(
        new VersionedTransaction(message).serialize().length,
      );
    }
  });

  it("counts past the limit, where web3.js cannot serialise", () => {
    const message = messageOf(30, 100);
    const size = solanaTransactionSize(message);
    expect(size).toBeGreaterThan(SOLANA_MAX_TRANSACTION_SIZE);
    expect(() => new VersionedTransaction(message).serialize()).toThrow();
    // 29 transfers beyond the memo's transaction: a new key (32 bytes) and an instruction (17 bytes) each, and the
    // System Program's key once.
    expect(size - solanaTransactionSize(messageOf(1, 100))).toBe(29 * (32 + 17) + 32);
  });
});
