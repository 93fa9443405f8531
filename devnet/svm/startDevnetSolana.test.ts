import { createTransferCheckedInstruction, getAccount, getAssociatedTokenAddressSync } from "@solana/spl-token";
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionInstruction,
  sendAndConfirmTransaction,
} from "@solana/web3.js";
import bs58 from "bs58";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEVNET_SOLANA_CHAIN_ID, devnetSolanaChain } from "./devnetSolanaChain.js";
import {
  type DevnetSolana,
  devnetSolanaAccountLamports,
  devnetSolanaAccountUsdc,
  devnetSolanaSolverUsdc,
  startDevnetSolana,
} from "./startDevnetSolana.js";

describe("startDevnetSolana", () => {
  let solana: DevnetSolana;
  let connection: Connection;
  beforeAll(async () => {
    solana = await startDevnetSolana({ slotMs: 50, finalizedAfterSlots: 4 });
    // No wsEndpoint: web3.js finds the pubsub on the HTTP port + 1, as against a real provider.
    connection = new Connection(solana.rpcUrl, "confirmed");
  });
  afterAll(() => solana?.stop());

  it("funds the test accounts, the solver and the depository with SOL and devnet USDC at genesis", async () => {
    const chain = devnetSolanaChain(solana);
    expect(chain).toMatchObject({
      id: DEVNET_SOLANA_CHAIN_ID,
      vmType: "svm",
      rpcUrl: solana.rpcUrl,
      wsUrl: solana.wsUrl,
    });
    expect(chain.currencies).toEqual([
      { symbol: "SOL", address: "11111111111111111111111111111111", decimals: 9 },
      { symbol: "USDC", address: solana.usdcMint, decimals: 6 },
    ]);
    expect(chain.accounts).toHaveLength(5);
    const mint = new PublicKey(solana.usdcMint);
    for (const { address, secretKey } of chain.accounts) {
      expect(Keypair.fromSecretKey(bs58.decode(secretKey)).publicKey.toBase58()).toBe(address);
      const owner = new PublicKey(address);
      // Genesis is rooted: even the default (finalized) commitment sees it.
      expect(BigInt(await new Connection(solana.rpcUrl).getBalance(owner))).toBe(devnetSolanaAccountLamports);
      const ata = getAssociatedTokenAddressSync(mint, owner);
      expect((await getAccount(connection, ata)).amount).toBe(devnetSolanaAccountUsdc);
    }
    const solverAta = getAssociatedTokenAddressSync(mint, solana.solver.publicKey);
    expect((await connection.getTokenAccountBalance(solverAta)).value.amount).toBe(devnetSolanaSolverUsdc.toString());
    expect(await connection.getBalance(solana.depository.publicKey)).toBeGreaterThan(0);
  });

  it("lands a SOL transfer confirmed over the websocket, with its meta balances to the lamport", async () => {
    const [payer] = solana.accounts;
    const recipient = Keypair.generate().publicKey;
    const lamports = 2 * LAMPORTS_PER_SOL;
    const before = await connection.getBalance(payer.publicKey);
    const tx = new Transaction().add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient, lamports }),
    );
    const signature = await sendAndConfirmTransaction(connection, tx, [payer]);
    const landed = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(landed?.meta?.err).toBeNull();
    expect(landed?.meta?.fee).toBe(5000);
    expect(landed?.meta?.preBalances.slice(0, 2)).toEqual([before, 0]);
    expect(landed?.meta?.postBalances.slice(0, 2)).toEqual([before - lamports - 5000, lamports]);
    expect(await connection.getBalance(payer.publicKey)).toBe(before - lamports - 5000);
    expect(await connection.getBalance(recipient)).toBe(lamports);
  });

  it("lands an SPL transferChecked with a Memo, confirmed with confirmTransaction, with its token balances", async () => {
    const [, payer] = solana.accounts;
    const mint = new PublicKey(solana.usdcMint);
    const from = getAssociatedTokenAddressSync(mint, payer.publicKey);
    const to = getAssociatedTokenAddressSync(mint, solana.depository.publicKey);
    const amount = 12_345_678n;
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
    const tx = new Transaction({ feePayer: payer.publicKey, blockhash, lastValidBlockHeight }).add(
      createTransferCheckedInstruction(from, mint, to, payer.publicKey, amount, 6),
      new TransactionInstruction({
        programId: new PublicKey("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr"),
        keys: [],
        data: Buffer.from("order 0xabc"),
      }),
    );
    tx.sign(payer);
    const signature = await connection.sendRawTransaction(tx.serialize());
    const confirmed = await connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight }, "confirmed");
    expect(confirmed.value.err).toBeNull();

    const landed = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    const keys = landed!.transaction.message.staticAccountKeys.map((k) => k.toBase58());
    const balance = (
      list: { accountIndex: number; uiTokenAmount: { amount: string } }[] | null | undefined,
      account: PublicKey,
    ) => list?.find((b) => keys[b.accountIndex] === account.toBase58())?.uiTokenAmount.amount;
    expect(balance(landed!.meta!.preTokenBalances, from)).toBe(devnetSolanaAccountUsdc.toString());
    expect(balance(landed!.meta!.postTokenBalances, from)).toBe((devnetSolanaAccountUsdc - amount).toString());
    expect(balance(landed!.meta!.preTokenBalances, to)).toBe("0");
    expect(balance(landed!.meta!.postTokenBalances, to)).toBe(amount.toString());
    expect(landed!.meta!.postTokenBalances?.[0]).toMatchObject({
      mint: solana.usdcMint,
      uiTokenAmount: { decimals: 6 },
    });
    expect(landed!.meta!.logMessages).toEqual(
      expect.arrayContaining([
        "Program log: order 0xabc",
        "Program MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr success",
      ]),
    );
    expect((await connection.getTokenAccountBalance(to)).value).toEqual({
      amount: amount.toString(),
      decimals: 6,
      uiAmount: 12.345678,
      uiAmountString: "12.345678",
    });

    const parsed = await connection.getParsedTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(parsed!.transaction.message.instructions).toEqual([
      expect.objectContaining({
        program: "spl-token",
        parsed: {
          type: "transferChecked",
          info: {
            source: from.toBase58(),
            mint: solana.usdcMint,
            destination: to.toBase58(),
            authority: payer.publicKey.toBase58(),
            tokenAmount: { amount: amount.toString(), decimals: 6, uiAmount: 12.345678, uiAmountString: "12.345678" },
          },
        },
      }),
      expect.objectContaining({ program: "spl-memo", parsed: "order 0xabc" }),
    ]);
    const [entry] = await connection.getSignaturesForAddress(to, { limit: 1 });
    expect(entry).toMatchObject({ signature, memo: "[11] order 0xabc", err: null });
    const account = await connection.getParsedAccountInfo(to);
    expect(account.value?.data).toMatchObject({
      program: "spl-token",
      parsed: { type: "account", info: { mint: solana.usdcMint, owner: solana.depository.publicKey.toBase58() } },
    });
  });
});
