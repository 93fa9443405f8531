import { ComputeBudgetProgram, Keypair, SystemProgram, Transaction, VersionedTransaction } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { createSvmLedger } from "./svmLedger.js";
import { transactionFee } from "./transactionFee.js";

describe("transactionFee", () => {
  it("is what litesvm charges: 5,000 per signature plus price × limit, rounded up", () => {
    const ledger = createSvmLedger();
    const payer = Keypair.generate();
    const to = Keypair.generate().publicKey;
    ledger.airdrop(payer.publicKey.toBase58(), 10_000_000_000n);
    const tx = new Transaction({
      feePayer: payer.publicKey,
      recentBlockhash: ledger.latestBlockhash("processed").blockhash,
    }).add(
      ComputeBudgetProgram.setComputeUnitLimit({ units: 300_001 }),
      ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 7 }),
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports: 1_000_000_000 }),
    );
    tx.sign(payer);
    const wire = tx.serialize();
    const message = VersionedTransaction.deserialize(wire).message;
    const fee = transactionFee(message, message.staticAccountKeys);
    expect(fee).toBe(5_000n + 3n); // 7 × 300,001 / 1e6 = 2.1 → 3
    const outcome = ledger.submit(wire);
    expect(outcome.kind).toBe("landed");
    expect(ledger.account(payer.publicKey.toBase58(), "processed")?.lamports).toBe(
      10_000_000_000n - 1_000_000_000n - fee,
    );
  });
});
