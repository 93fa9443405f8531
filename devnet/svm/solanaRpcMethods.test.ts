import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SendTransactionError,
  SystemProgram,
  Transaction,
  TransactionInstruction,
} from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevnetSolana, startDevnetSolana } from "./startDevnetSolana.js";

const memoProgram = new PublicKey("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr");

describe("solanaRpcMethods", () => {
  let solana: DevnetSolana;
  let connection: Connection;
  beforeAll(async () => {
    // Slots only on demand: each test decides when a transaction turns confirmed or finalized.
    solana = await startDevnetSolana({ slotMs: 0, finalizedAfterSlots: 3 });
    connection = new Connection(solana.rpcUrl, "confirmed");
  });
  afterAll(() => solana?.stop());

  const transfer = async (payer: Keypair, to: PublicKey, lamports: number, memo?: string) => {
    const tx = new Transaction({ feePayer: payer.publicKey, ...(await connection.getLatestBlockhash("processed")) });
    tx.add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports }));
    if (memo) tx.add(new TransactionInstruction({ programId: memoProgram, keys: [], data: Buffer.from(memo) }));
    tx.sign(payer);
    return tx;
  };
  // A JSON-RPC call web3.js would not make (it refuses the parameters or the size itself), answered as sent.
  const rawRpc = async (method: string, params: unknown[]) =>
    (
      await fetch(solana.rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      })
    ).json();
  const rpcError = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error("expected a refusal");
      },
      (error: Error) => error,
    );

  it("pages getSignaturesForAddress newest first with before/until/limit, memos in Agave's format", async () => {
    const [payer] = solana.accounts;
    const to = Keypair.generate().publicKey;
    const signatures: string[] = [];
    for (const memo of ["first", undefined, "third ✓"]) {
      if (signatures.length) solana.advance();
      signatures.push(
        await connection.sendRawTransaction((await transfer(payer, to, LAMPORTS_PER_SOL, memo)).serialize()),
      );
    }
    // The last one is only processed: confirmed lists omit it until a slot passes.
    expect((await connection.getSignaturesForAddress(to)).map((s) => s.signature)).toEqual([
      signatures[1],
      signatures[0],
    ]);
    const processed = await rawRpc("getSignaturesForAddress", [to.toBase58(), { commitment: "processed" }]);
    expect(processed.error).toEqual({
      code: -32602,
      message: "Method does not support commitment below `confirmed`",
    });
    solana.advance();
    const all = await connection.getSignaturesForAddress(to);
    expect(all.map((s) => [s.signature, s.memo, s.confirmationStatus])).toEqual([
      [signatures[2], "[9] third ✓", "confirmed"],
      [signatures[1], null, "confirmed"],
      [signatures[0], "[5] first", "finalized"],
    ]);
    expect((await connection.getSignaturesForAddress(to, { limit: 1 })).map((s) => s.signature)).toEqual([
      signatures[2],
    ]);
    expect(
      (await connection.getSignaturesForAddress(to, { before: signatures[2], limit: 1 })).map((s) => s.signature),
    ).toEqual([signatures[1]]);
    expect((await connection.getSignaturesForAddress(to, { until: signatures[0] })).map((s) => s.signature)).toEqual([
      signatures[2],
      signatures[1],
    ]);
    // finalizedAfterSlots 3: only the first has its 3 slots behind it.
    expect((await connection.getSignaturesForAddress(to, {}, "finalized")).map((s) => s.signature)).toEqual([
      signatures[0],
    ]);
    // Reads at a commitment see the accounts as of its slot.
    expect(await connection.getBalance(to, "processed")).toBe(3 * LAMPORTS_PER_SOL);
    expect(await connection.getBalance(to, "confirmed")).toBe(3 * LAMPORTS_PER_SOL);
    expect(await connection.getBalance(to, "finalized")).toBe(LAMPORTS_PER_SOL);
  });

  it("refuses a transaction whose signature does not verify", async () => {
    const wire = (await transfer(solana.accounts[1], Keypair.generate().publicKey, LAMPORTS_PER_SOL)).serialize();
    wire[10] ^= 1;
    const error = await rpcError(connection.sendRawTransaction(wire));
    expect(error.message).toContain("Transaction signature verification failure");
  });

  it("refuses an expired blockhash (150 blocks) but accepts it before", async () => {
    const tx = await transfer(solana.accounts[1], Keypair.generate().publicKey, LAMPORTS_PER_SOL);
    const { blockhash } = await connection.getLatestBlockhash("processed");
    solana.advance(150);
    expect((await connection.isBlockhashValid(blockhash, { commitment: "processed" })).value).toBe(true);
    solana.advance();
    expect((await connection.isBlockhashValid(blockhash, { commitment: "processed" })).value).toBe(false);
    const error = await rpcError(connection.sendRawTransaction(tx.serialize()));
    expect(error).toBeInstanceOf(SendTransactionError);
    expect(error.message).toContain("Transaction simulation failed: Blockhash not found");
  });

  it("refuses a transfer beyond the balance with the System Program's logs, and charges nothing", async () => {
    const payer = solana.accounts[2];
    const before = await connection.getBalance(payer.publicKey, "processed");
    const tx = await transfer(payer, Keypair.generate().publicKey, before);
    const error = (await rpcError(connection.sendRawTransaction(tx.serialize()))) as SendTransactionError;
    expect(error.message).toContain(
      "Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1",
    );
    expect(error.logs).toEqual(expect.arrayContaining([expect.stringMatching(/^Transfer: insufficient lamports/)]));
    expect(await connection.getBalance(payer.publicKey, "processed")).toBe(before);
    // With skipPreflight the failed transaction lands, pays its fee and reports its error.
    const signature = await connection.sendRawTransaction(tx.serialize(), { skipPreflight: true });
    solana.advance();
    const landed = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(landed?.meta?.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    expect(await connection.getBalance(payer.publicKey, "processed")).toBe(before - 5000);
  });

  it("drops what a payer sends while asked to: accepted, never landed; the same bytes land once it stops", async () => {
    const payer = solana.accounts[3];
    const recipient = Keypair.generate().publicKey;
    const wire = (await transfer(payer, recipient, LAMPORTS_PER_SOL)).serialize();
    solana.ledger.dropTransactionsOf(payer.publicKey.toBase58());
    const signature = await connection.sendRawTransaction(wire);
    solana.advance();
    expect((await connection.getSignatureStatuses([signature], { searchTransactionHistory: true })).value).toEqual([
      null,
    ]);
    expect(await connection.getBalance(recipient, "processed")).toBe(0);
    solana.ledger.dropTransactionsOf(payer.publicKey.toBase58(), false);
    expect(await connection.sendRawTransaction(wire)).toBe(signature);
    expect(await connection.getBalance(recipient, "processed")).toBe(LAMPORTS_PER_SOL);
  });

  it("refuses a duplicate signature", async () => {
    const wire = (await transfer(solana.accounts[3], Keypair.generate().publicKey, LAMPORTS_PER_SOL)).serialize();
    const signature = await connection.sendRawTransaction(wire);
    const error = await rpcError(connection.sendRawTransaction(wire));
    expect(error.message).toContain("Transaction simulation failed: This transaction has already been processed");
    const { value } = await connection.getSignatureStatuses([signature]);
    expect(value[0]).toMatchObject({ confirmations: 0, confirmationStatus: "processed", err: null });
  });

  it("refuses an oversize transaction as Agave's RPC does (over 1,232 bytes raw, 1,644 base64 chars)", async () => {
    const payer = solana.accounts[4];
    const tx = await transfer(payer, Keypair.generate().publicKey, LAMPORTS_PER_SOL, "x".repeat(1100));
    // web3.js itself refuses to serialise past the limit: send the wire it would have built.
    const wire = Buffer.concat([Buffer.from([1]), tx.signature!, tx.serializeMessage()]);
    expect(wire.length).toBeGreaterThan(1232);
    const { error } = await rawRpc("sendTransaction", [wire.toString("base64"), { encoding: "base64" }]);
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(
      /^base64 encoded solana_transaction::versioned::VersionedTransaction too large: \d+ bytes \(max: encoded\/raw 1644\/1232\)$/,
    );
  });

  it("prices a message with getFeeForMessage and reports rent exemption", async () => {
    const tx = await transfer(solana.accounts[0], Keypair.generate().publicKey, 1);
    expect((await connection.getFeeForMessage(tx.compileMessage(), "processed")).value).toBe(5000);
    expect(await connection.getMinimumBalanceForRentExemption(165)).toBe(2039280);
  });
});
