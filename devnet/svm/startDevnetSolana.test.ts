import { getAccount, getAssociatedTokenAddressSync } from "@solana/spl-token";
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SystemProgram,
  Transaction,
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
});
