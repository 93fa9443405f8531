import {
  type Connection,
  type Keypair,
  type MessageV0,
  PublicKey,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from "@solana/web3.js";

/** A Solana deposit step's item `data`: what the official SVM adapter compiles into a v0 transaction. */
export type SolanaStepData = {
  instructions: {
    keys: { pubkey: string; isSigner: boolean; isWritable: boolean }[];
    programId: string;
    data: string;
  }[];
  addressLookupTableAddresses: string[];
};

/**
 * What a wallet does with a Solana deposit step, as the official SVM adapter does: the instructions compiled into a
 * v0 transaction with the user (or `options.payer`, a `depositFeePayer`) paying its fee and a fresh blockhash, signed
 * and sent; `edit` changes the instructions first (an attacker's deposit). Returns the signature, the signed bytes (to
 * send again) and the compiled message.
 */
export async function paySolanaStep(
  connection: Connection,
  user: Keypair,
  data: SolanaStepData,
  edit: (instructions: TransactionInstruction[]) => TransactionInstruction[] = (instructions) => instructions,
  options: { skipPreflight?: boolean; payer?: Keypair } = {},
): Promise<{ signature: string; raw: Uint8Array; message: MessageV0 }> {
  const instructions = data.instructions.map(
    (instruction) =>
      new TransactionInstruction({
        keys: instruction.keys.map((key) => ({ ...key, pubkey: new PublicKey(key.pubkey) })),
        programId: new PublicKey(instruction.programId),
        data: Buffer.from(instruction.data, "hex"),
      }),
  );
  const { blockhash } = await connection.getLatestBlockhash();
  const message = new TransactionMessage({
    payerKey: (options.payer ?? user).publicKey,
    recentBlockhash: blockhash,
    instructions: edit(instructions),
  }).compileToV0Message();
  const tx = new VersionedTransaction(message);
  tx.sign(options.payer ? [options.payer, user] : [user]);
  const raw = tx.serialize();
  const signature = await connection.sendRawTransaction(raw, { skipPreflight: options.skipPreflight ?? false });
  return { signature, raw, message };
}
