import { Connection, Keypair, SystemProgram } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendInstructions } from "../../../devnet/svm/sendInstructions.js";
import { type DevnetSolana, startDevnetSolana } from "../../../devnet/svm/startDevnetSolana.js";
import { memoInstruction } from "./memoInstruction.js";
import { SOLANA_NATIVE_CURRENCY } from "./svmFamily.js";
import { svmWithdrawalFacts } from "./svmWithdrawalFacts.js";

describe("svmWithdrawalFacts", () => {
  const orderId = `0x${"cd".repeat(32)}`;
  let solana: DevnetSolana;
  beforeAll(async () => void (solana = await startDevnetSolana({ slotMs: 0, confirmedAfterSlots: 0 })));
  afterAll(() => solana?.stop());

  /** What `svmWithdrawalFacts` reads of `payer`'s landed payment with these memos. */
  const withdrawalsOf = async (payer: Keypair, memos: string[]) => {
    const connection = new Connection(solana.rpcUrl, "confirmed");
    const to = Keypair.generate().publicKey;
    const signature = await sendInstructions(connection, payer, [
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports: 2_000_000 }),
      ...memos.map(memoInstruction),
    ]);
    const tx = await connection.getParsedTransaction(signature, { maxSupportedTransactionVersion: 0 });
    return { signature, to: to.toBase58(), facts: svmWithdrawalFacts(tx!, solana.depository.publicKey.toBase58()) };
  };

  it("reads the depository's payment named by its memo as the order's withdrawal (a refund)", async () => {
    const { signature, to, facts } = await withdrawalsOf(solana.depository, [orderId]);
    expect(facts).toEqual([
      {
        txHash: signature,
        position: 0,
        orderId,
        recipient: to,
        currency: SOLANA_NATIVE_CURRENCY,
        amount: 2_000_000n,
        blockNumber: expect.any(BigInt),
        blockHash: signature,
        timestamp: expect.any(BigInt),
      },
    ]);
  });

  it("reads nothing of another payer (the same memo) or of a depository payment naming no order", async () => {
    expect((await withdrawalsOf(solana.accounts[0]!, [orderId])).facts).toEqual([]);
    expect((await withdrawalsOf(solana.solver, [orderId])).facts).toEqual([]);
    expect((await withdrawalsOf(solana.depository, [])).facts).toEqual([]);
  });
});
