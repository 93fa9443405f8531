import {
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from "@solana/spl-token";
import { PublicKey, SystemProgram, type TransactionInstruction } from "@solana/web3.js";
import { memoInstruction } from "./memoInstruction.js";
import { SOLANA_NATIVE_CURRENCY } from "./svmFamily.js";

export type SolanaDepositInput = {
  user: string;
  depository: string;
  /** The native SOL id or an SPL mint (of the classic Token program). */
  currency: { address: string; decimals: number };
  amount: bigint;
  orderId: string;
  /** Whether the depository's associated token account of the mint exists; the user's transaction creates it if not. */
  depositoryTokenAccountExists: boolean;
  /** Who pays the rent of an account the deposit creates (`depositFeePayer`); the user when absent. */
  payer?: string;
};

/**
 * The instructions of a deposit: a SOL transfer to the depository, or an SPL `transferChecked` from the user's
 * associated token account to the depository's, then a Memo carrying the order id — it ties the deposit to its order
 * with no program of ours on chain.
 */
export function solanaDepositInstructions(input: SolanaDepositInput): TransactionInstruction[] {
  const user = new PublicKey(input.user);
  const depository = new PublicKey(input.depository);
  const memo = memoInstruction(input.orderId);
  if (input.currency.address === SOLANA_NATIVE_CURRENCY)
    return [SystemProgram.transfer({ fromPubkey: user, toPubkey: depository, lamports: input.amount }), memo];
  const mint = new PublicKey(input.currency.address);
  const source = getAssociatedTokenAddressSync(mint, user, true);
  const destination = getAssociatedTokenAddressSync(mint, depository, true);
  return [
    ...(input.depositoryTokenAccountExists
      ? []
      : [
          createAssociatedTokenAccountIdempotentInstruction(
            input.payer === undefined ? user : new PublicKey(input.payer),
            destination,
            depository,
            mint,
          ),
        ]),
    createTransferCheckedInstruction(source, mint, destination, user, input.amount, input.currency.decimals),
    memo,
  ];
}
