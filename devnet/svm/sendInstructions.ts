import {
  type Connection,
  type Keypair,
  type TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";

/**
 * Signs `instructions` as a v0 transaction paid by `payer` with a fresh blockhash and sends it (tests and benchmarks
 * of the devnet's wallets); `skipPreflight` lands one that fails. Returns its signature.
 */
export async function sendInstructions(
  connection: Connection,
  payer: Keypair,
  instructions: TransactionInstruction[],
  options: { skipPreflight?: boolean } = {},
): Promise<string> {
  const { blockhash } = await connection.getLatestBlockhash();
  const message = new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: blockhash, instructions });
  const tx = new VersionedTransaction(message.compileToV0Message());
  tx.sign([payer]);
  return connection.sendRawTransaction(tx.serialize(), { skipPreflight: options.skipPreflight ?? false });
}
