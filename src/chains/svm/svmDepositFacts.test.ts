import { createTransferCheckedInstruction, getAssociatedTokenAddressSync } from "@solana/spl-token";
import { Connection, type Keypair, PublicKey, SystemProgram, type TransactionInstruction } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devnetSolanaChain } from "../../../devnet/svm/devnetSolanaChain.js";
import { sendInstructions } from "../../../devnet/svm/sendInstructions.js";
import { type DevnetSolana, startDevnetSolana } from "../../../devnet/svm/startDevnetSolana.js";
import { NO_ORDER } from "../chainFacts.js";
import { memoInstruction } from "./memoInstruction.js";
import { svmChainConfigSchema } from "./svmChainFamily.js";
import { svmDepositFacts } from "./svmDepositFacts.js";
import { svmDepositTargets } from "./svmDepositTargets.js";
import { SOLANA_NATIVE_CURRENCY } from "./svmFamily.js";

const orderId = `0x${"cd".repeat(32)}`;
const otherOrder = `0x${"ef".repeat(32)}`;

describe("svmDepositFacts", () => {
  let solana: DevnetSolana;
  let connection: Connection;
  beforeAll(async () => {
    solana = await startDevnetSolana({ slotMs: 0, confirmedAfterSlots: 0 });
    connection = new Connection(solana.rpcUrl, "confirmed");
  });
  afterAll(() => solana?.stop());

  const targets = () => svmDepositTargets(svmChainConfigSchema.parse(devnetSolanaChain(solana)));
  const mint = () => new PublicKey(solana.usdcMint);
  const sol = (from: Keypair, lamports: bigint, to = solana.depository.publicKey) =>
    SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to, lamports });
  const usdc = (from: Keypair, amount: bigint) =>
    createTransferCheckedInstruction(
      getAssociatedTokenAddressSync(mint(), from.publicKey),
      mint(),
      getAssociatedTokenAddressSync(mint(), solana.depository.publicKey),
      from.publicKey,
      amount,
      6,
    );
  const factsOf = async (payer: Keypair, instructions: TransactionInstruction[], skipPreflight = false) => {
    const signature = await sendInstructions(connection, payer, instructions, { skipPreflight });
    const tx = await connection.getParsedTransaction(signature, { maxSupportedTransactionVersion: 0 });
    return { signature, facts: svmDepositFacts(tx!, targets()) };
  };

  it("reads one fact per transfer to the depository or its token account, named by the memo", async () => {
    const user = solana.accounts[0]!;
    const { signature, facts } = await factsOf(user, [sol(user, 5_000n), usdc(user, 7n), memoInstruction(orderId)]);
    const common = { txHash: signature, blockHash: signature, orderId, depositor: user.publicKey.toBase58() };
    expect(facts).toMatchObject([
      { ...common, position: 0, currency: SOLANA_NATIVE_CURRENCY, amount: 5_000n },
      { ...common, position: 1, currency: solana.usdcMint, amount: 7n },
    ]);
    const landed = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    expect(facts[0]).toMatchObject({
      blockNumber: BigInt(landed!.slot),
      timestamp: BigInt(landed!.blockTime!),
      txFrom: user.publicKey.toBase58(),
      txFee: BigInt(landed!.meta!.fee),
    });
  });

  it("names no order without a memo, with a malformed one or with two", async () => {
    const user = solana.accounts[1]!;
    for (const memos of [[], [memoInstruction("order 1")], [memoInstruction(orderId), memoInstruction(otherOrder)]]) {
      const { facts } = await factsOf(user, [sol(user, 1_000n), ...memos]);
      expect(facts.map((fact) => fact.orderId)).toEqual([NO_ORDER]);
    }
  });

  it("reads nothing of a failed transaction, or of transfers elsewhere", async () => {
    const user = solana.accounts[2]!;
    const failed = await factsOf(user, [sol(user, 1_000n), sol(user, 10n ** 18n), memoInstruction(orderId)], true);
    expect(failed.facts).toEqual([]);
    const elsewhere = await factsOf(user, [sol(user, 1_000n, solana.solver.publicKey), memoInstruction(orderId)]);
    expect(elsewhere.facts).toEqual([]);
  });
});
