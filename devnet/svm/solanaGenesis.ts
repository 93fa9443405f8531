import {
  createAssociatedTokenAccountIdempotentInstruction,
  createInitializeMint2Instruction,
  createMintToCheckedInstruction,
  getAssociatedTokenAddressSync,
  MINT_SIZE,
  TOKEN_PROGRAM_ID,
} from "@solana/spl-token";
import { type Keypair, type PublicKey, SystemProgram, Transaction } from "@solana/web3.js";
import type { SvmLedger } from "./svmLedger.js";

export type GenesisHolder = { owner: PublicKey; lamports: bigint; tokens: bigint };

/**
 * Creates a 6-decimal SPL mint (devnet USDC) with real System and SPL Token transactions, and funds each holder
 * with lamports and an associated token account holding its tokens (an empty one when it gets none).
 */
export function solanaGenesis(
  ledger: SvmLedger,
  { mint, mintAuthority, holders }: { mint: Keypair; mintAuthority: Keypair; holders: GenesisHolder[] },
) {
  const decimals = 6;
  ledger.airdrop(mintAuthority.publicKey.toBase58(), 10_000_000_000n);
  for (const holder of holders) ledger.airdrop(holder.owner.toBase58(), holder.lamports);
  const send = (tx: Transaction, signers: Keypair[]) => {
    tx.recentBlockhash = ledger.latestBlockhash("processed").blockhash;
    tx.feePayer = mintAuthority.publicKey;
    tx.sign(...signers);
    const outcome = ledger.submit(tx.serialize());
    if (outcome.kind !== "landed" || outcome.transaction.err)
      throw new Error(`devnet Solana genesis transaction failed: ${JSON.stringify(outcome)}`);
  };
  send(
    new Transaction().add(
      SystemProgram.createAccount({
        fromPubkey: mintAuthority.publicKey,
        newAccountPubkey: mint.publicKey,
        lamports: Number(ledger.minimumBalanceForRentExemption(MINT_SIZE)),
        space: MINT_SIZE,
        programId: TOKEN_PROGRAM_ID,
      }),
      createInitializeMint2Instruction(mint.publicKey, decimals, mintAuthority.publicKey, null),
    ),
    [mintAuthority, mint],
  );
  for (const holder of holders) {
    const ata = getAssociatedTokenAddressSync(mint.publicKey, holder.owner, true);
    const tx = new Transaction().add(
      createAssociatedTokenAccountIdempotentInstruction(mintAuthority.publicKey, ata, holder.owner, mint.publicKey),
    );
    if (holder.tokens > 0n)
      tx.add(createMintToCheckedInstruction(mint.publicKey, ata, mintAuthority.publicKey, holder.tokens, decimals));
    send(tx, [mintAuthority]);
  }
  return { mint: mint.publicKey.toBase58(), decimals };
}
