import { Keypair, TransactionMessage, VersionedTransaction } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../domain/errors.js";
import { checkSolanaTransactionSize } from "./checkSolanaTransactionSize.js";
import { memoInstruction } from "./memoInstruction.js";
import { SOLANA_MAX_TRANSACTION_SIZE, solanaTransactionSize } from "./solanaTransactionSize.js";

const payer = Keypair.generate().publicKey;
const messageOf = (memoBytes: number) =>
  new TransactionMessage({
    payerKey: payer,
    recentBlockhash: "11111111111111111111111111111111",
    instructions: [memoInstruction("m".repeat(memoBytes))],
  }).compileToV0Message();

describe("checkSolanaTransactionSize", () => {
  // A memo long enough that one byte more of it is one byte more of the transaction (its length takes 2 bytes).
  const fitting = 300 + SOLANA_MAX_TRANSACTION_SIZE - solanaTransactionSize(messageOf(300));

  it("takes a transaction of exactly 1,232 bytes, what web3.js still serialises", () => {
    const message = messageOf(fitting);
    expect(checkSolanaTransactionSize(message)).toBe(SOLANA_MAX_TRANSACTION_SIZE);
    expect(new VersionedTransaction(message).serialize().length).toBe(SOLANA_MAX_TRANSACTION_SIZE);
  });

  it("refuses one byte more with a 400 SOLANA_TX_TOO_LARGE naming the size and the overage", () => {
    let refusal: unknown;
    try {
      checkSolanaTransactionSize(messageOf(fitting + 1));
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(InvalidInputError);
    expect(refusal).toMatchObject({
      errorCode: "SOLANA_TX_TOO_LARGE",
      status: 400,
      message: "the deposit transaction takes 1233 bytes, 1 over Solana's limit of 1232",
    });
  });
});
