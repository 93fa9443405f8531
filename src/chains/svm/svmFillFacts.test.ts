import { Connection, Keypair, SystemProgram } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendInstructions } from "../../../devnet/svm/sendInstructions.js";
import { type DevnetSolana, startDevnetSolana } from "../../../devnet/svm/startDevnetSolana.js";
import { memoInstruction } from "./memoInstruction.js";
import { SOLANA_NATIVE_CURRENCY } from "./svmFamily.js";
import { svmFillFacts } from "./svmFillFacts.js";

const requestId = `0x${"ab".repeat(32)}`;

describe("svmFillFacts", () => {
  let solana: DevnetSolana;
  let connection: Connection;
  beforeAll(async () => {
    solana = await startDevnetSolana({ slotMs: 0, confirmedAfterSlots: 0 });
    connection = new Connection(solana.rpcUrl, "confirmed");
  });
  afterAll(() => solana?.stop());

  const solver = () => solana.solver.publicKey.toBase58();
  const factsOf = async (payer: Keypair, memos: string[], lamports = 1_000_000n, skipPreflight = false) => {
    const to = Keypair.generate().publicKey;
    const signature = await sendInstructions(
      connection,
      payer,
      [SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports }), ...memos.map(memoInstruction)],
      { skipPreflight },
    );
    const tx = await connection.getParsedTransaction(signature, { maxSupportedTransactionVersion: 0 });
    return { signature, to: to.toBase58(), facts: svmFillFacts(tx!, solver()) };
  };

  it("reads the solver's payment named by its memo's request id", async () => {
    const { signature, to, facts } = await factsOf(solana.solver, [requestId.toUpperCase().replace("0X", "0x")]);
    expect(facts).toMatchObject([
      {
        txHash: signature,
        blockHash: signature,
        position: 0,
        requestId,
        currency: SOLANA_NATIVE_CURRENCY,
        recipient: to,
        amount: 1_000_000n,
        txFee: 5_000n,
      },
    ]);
  });

  it("reads nothing of another payer, without one memo naming a request, or of a failed transaction", async () => {
    expect((await factsOf(solana.accounts[0]!, [requestId])).facts).toEqual([]);
    expect((await factsOf(solana.solver, [])).facts).toEqual([]);
    expect((await factsOf(solana.solver, ["fill"])).facts).toEqual([]);
    expect((await factsOf(solana.solver, [requestId, requestId])).facts).toEqual([]);
    expect((await factsOf(solana.solver, [requestId], 10n ** 18n, true)).facts).toEqual([]);
  });
});
