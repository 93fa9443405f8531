import type { ParsedInstruction, ParsedTransactionWithMeta, PartiallyDecodedInstruction } from "@solana/web3.js";
import type { FillFact } from "../chainFacts.js";
import { MEMO_PROGRAM_IDS, parseOrderMemo } from "./memoInstruction.js";
import { SOLANA_NATIVE_CURRENCY } from "./svmFamily.js";

/**
 * A fill fact as a Solana transaction shows it, without the chain id (the caller's): `position` is the payment's
 * instruction index, `blockNumber` its slot, `blockHash` its signature (as deposit facts name theirs).
 */
export type SvmFillFact = Omit<FillFact, "chainId">;

type Instruction = ParsedInstruction | PartiallyDecodedInstruction;
type Payment = { position: number; recipient: string; currency: string; amount: bigint };

const parsedOf = (instruction: Instruction) =>
  "parsed" in instruction && typeof instruction.parsed === "object" && instruction.parsed !== null
    ? (instruction.parsed as { type: string; info: Record<string, unknown> })
    : undefined;

/**
 * The fills a landed transaction of the solver made: it paid the fee (the solver signs its fills alone), its one Memo
 * names a request id, and each top-level SOL transfer from the solver, or SPL transferChecked the solver authorised,
 * is a fill fact of that request — paid to the transfer's destination (SOL) or to the owner of the destination token
 * account (SPL, as the transaction's token balances name it). A failed transaction paid nothing and makes none.
 */
export function svmFillFacts(tx: ParsedTransactionWithMeta, solver: string): SvmFillFact[] {
  if (!tx.meta || tx.meta.err !== null) return [];
  const { instructions, accountKeys } = tx.transaction.message;
  if (accountKeys[0]?.pubkey.toBase58() !== solver) return [];
  const memos = instructions.filter((instruction) => MEMO_PROGRAM_IDS.includes(instruction.programId.toBase58()));
  const requestId = memos.length === 1 && "parsed" in memos[0]! ? parseOrderMemo(String(memos[0].parsed)) : undefined;
  if (!requestId) return [];
  const ownerOf = (tokenAccount: string) => {
    const index = accountKeys.findIndex((key) => key.pubkey.toBase58() === tokenAccount);
    return tx.meta!.postTokenBalances?.find((balance) => balance.accountIndex === index)?.owner;
  };
  const payments = instructions.flatMap((instruction, position): Payment[] => {
    const parsed = parsedOf(instruction);
    if (!parsed || !("program" in instruction)) return [];
    const { type, info } = parsed;
    if (instruction.program === "system" && type === "transfer" && info.source === solver)
      return [
        {
          position,
          recipient: String(info.destination),
          currency: SOLANA_NATIVE_CURRENCY,
          amount: BigInt(info.lamports as number),
        },
      ];
    if (instruction.program !== "spl-token" || type !== "transferChecked" || info.authority !== solver) return [];
    const owner = ownerOf(String(info.destination));
    return owner
      ? [
          {
            position,
            recipient: owner,
            currency: String(info.mint),
            amount: BigInt((info.tokenAmount as { amount: string }).amount),
          },
        ]
      : [];
  });
  const signature = tx.transaction.signatures[0]!;
  return payments.map((payment) => ({
    txHash: signature,
    position: payment.position,
    requestId,
    currency: payment.currency,
    recipient: payment.recipient,
    amount: payment.amount,
    blockNumber: BigInt(tx.slot),
    blockHash: signature,
    timestamp: BigInt(tx.blockTime ?? 0),
    txFee: BigInt(tx.meta!.fee),
  }));
}
