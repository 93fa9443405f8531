import type { ParsedInstruction, ParsedTransactionWithMeta, PartiallyDecodedInstruction } from "@solana/web3.js";
import { type DepositFact, NO_ORDER } from "../chainFacts.js";
import { MEMO_PROGRAM_IDS, parseOrderMemo } from "./memoInstruction.js";
import { SOLANA_NATIVE_CURRENCY } from "./svmFamily.js";

/**
 * A deposit fact as a Solana transaction shows it, without the chain id (the caller's): `position` is the transfer's
 * instruction index, `blockNumber` the slot it landed in, and `blockHash` its signature — the RPC names no block hash
 * for a transaction (without `getBlock`), and a signature lands in one slot of a fork or in none, which is what the
 * deposit check asks.
 */
export type SvmDepositFact = Omit<DepositFact, "chainId">;

/** Where deposits arrive: the depository (SOL) and its associated token account of each listed mint. */
export type SvmDepositTargets = {
  depository: string;
  /** Token account address → its mint. */
  tokenAccounts: ReadonlyMap<string, string>;
};

type Instruction = ParsedInstruction | PartiallyDecodedInstruction;
type Transfer = { position: number; destination: string; depositor: string; currency: string; amount: bigint };

const isParsed = (instruction: Instruction): instruction is ParsedInstruction => "parsed" in instruction;

/** A top-level transfer to one of the targets, as the jsonParsed encoding shows it; undefined for anything else. */
function transferOf(instruction: Instruction, position: number, targets: SvmDepositTargets): Transfer | undefined {
  if (!isParsed(instruction) || typeof instruction.parsed !== "object" || instruction.parsed === null) return;
  const { type, info } = instruction.parsed as { type: string; info: Record<string, unknown> };
  if (instruction.program === "system" && type === "transfer" && info.destination === targets.depository)
    return {
      position,
      destination: targets.depository,
      depositor: String(info.source),
      currency: SOLANA_NATIVE_CURRENCY,
      amount: BigInt(info.lamports as number),
    };
  if (instruction.program !== "spl-token" || (type !== "transfer" && type !== "transferChecked")) return;
  const destination = String(info.destination);
  const mint = targets.tokenAccounts.get(destination);
  // A transferChecked names its mint; the token program refused it unless that is the destination's.
  if (mint === undefined || (type === "transferChecked" && info.mint !== mint)) return;
  const amount = type === "transfer" ? String(info.amount) : (info.tokenAmount as { amount: string }).amount;
  return {
    position,
    destination,
    depositor: String(info.authority ?? info.multisigAuthority),
    currency: mint,
    amount: BigInt(amount),
  };
}

/** What an account's balance of `currency` changed by in the transaction (lamports or token units). */
function balanceChange(tx: ParsedTransactionWithMeta, account: string, currency: string): bigint {
  const index = tx.transaction.message.accountKeys.findIndex((key) => key.pubkey.toBase58() === account);
  if (index < 0) return 0n;
  const meta = tx.meta!;
  if (currency === SOLANA_NATIVE_CURRENCY) return BigInt(meta.postBalances[index]!) - BigInt(meta.preBalances[index]!);
  const tokens = (balances: typeof meta.postTokenBalances) =>
    BigInt(balances?.find((balance) => balance.accountIndex === index)?.uiTokenAmount.amount ?? "0");
  return tokens(meta.postTokenBalances) - tokens(meta.preTokenBalances);
}

/**
 * The deposits a landed transaction made: one per top-level SOL transfer to the depository or SPL transfer to its
 * token account, named by the transaction's one Memo when that is an order id (else NO_ORDER, kept for a refund). A
 * failed transaction moved nothing and makes none; transfers to an account whose balance rose by less than they
 * claim make none either (the chain's balances are the word on what arrived).
 */
export function svmDepositFacts(tx: ParsedTransactionWithMeta, targets: SvmDepositTargets): SvmDepositFact[] {
  if (!tx.meta || tx.meta.err !== null) return [];
  const { instructions, accountKeys } = tx.transaction.message;
  const transfers = instructions.flatMap((instruction, position) => transferOf(instruction, position, targets) ?? []);
  if (transfers.length === 0) return [];
  const memos = instructions.filter(
    (instruction) => isParsed(instruction) && MEMO_PROGRAM_IDS.includes(instruction.programId.toBase58()),
  ) as ParsedInstruction[];
  const named = memos.length === 1 ? parseOrderMemo(String(memos[0]!.parsed)) : undefined;
  const credited = transfers.filter((transfer) => {
    const claimed = transfers
      .filter((other) => other.destination === transfer.destination && other.currency === transfer.currency)
      .reduce((sum, other) => sum + other.amount, 0n);
    return balanceChange(tx, transfer.destination, transfer.currency) >= claimed;
  });
  const signature = tx.transaction.signatures[0]!;
  return credited.map((transfer) => ({
    txHash: signature,
    position: transfer.position,
    orderId: named ?? NO_ORDER,
    depositor: transfer.depositor,
    currency: transfer.currency,
    amount: transfer.amount,
    blockNumber: BigInt(tx.slot),
    blockHash: signature,
    timestamp: BigInt(tx.blockTime ?? 0),
    txFrom: accountKeys[0]!.pubkey.toBase58(),
    txFee: BigInt(tx.meta!.fee),
  }));
}
