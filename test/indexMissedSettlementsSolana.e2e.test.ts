import { Connection, Keypair, SystemProgram } from "@solana/web3.js";
import bs58 from "bs58";
import { zeroAddress } from "viem";
import { expect, vi } from "vitest";
import { sendInstructions } from "../devnet/svm/sendInstructions.js";
import { memoInstruction } from "../src/chains/svm/memoInstruction.js";
import { SOLANA_NATIVE_CURRENCY } from "../src/chains/svm/svmFamily.js";
import { describeIndexMissedSettlements } from "./support/indexMissedSettlementsCase.js";
import { paySolanaStep } from "./support/paySolanaStep.js";
import type { TestStack } from "./support/startTestStack.js";

const solana = (stack: TestStack) => stack.solana!.devnet;
const connection = (stack: TestStack) => new Connection(solana(stack).rpcUrl, "confirmed");
/** Waits for a signature to reach `commitment`: the deposit and a refund are read confirmed, a fill finalized. */
const landed = (stack: TestStack, signature: string, commitment: "confirmed" | "finalized") =>
  vi.waitFor(
    async () => {
      const { value } = await connection(stack).getSignatureStatuses([signature]);
      expect(value[0]?.err).toBeNull();
      expect(commitment === "confirmed" ? ["confirmed", "finalized"] : ["finalized"]).toContain(
        value[0]?.confirmationStatus,
      );
    },
    { timeout: 15_000, interval: 50 },
  );

describeIndexMissedSettlements({
  name: "Solana",
  stackOptions: { solana: true },
  chainId: (stack) => stack.solana!.chain.id,
  hashesLikeEvm: false,
  fillQuote: (stack) => ({
    destinationChainId: stack.solana!.chain.id,
    originCurrency: zeroAddress,
    destinationCurrency: SOLANA_NATIVE_CURRENCY,
    amount: (10n ** 16n).toString(),
    recipient: solana(stack).accounts[2]!.publicKey.toBase58(),
  }),
  refundQuote: (stack) => ({
    user: solana(stack).accounts[0]!.publicKey.toBase58(),
    originChainId: stack.solana!.chain.id,
    originCurrency: SOLANA_NATIVE_CURRENCY,
    destinationCurrency: zeroAddress,
    amount: "100000000",
  }),
  async deposit(stack, quote) {
    const { signature } = await paySolanaStep(
      connection(stack),
      solana(stack).accounts[0]!,
      quote.steps[0].items[0].data,
    );
    await landed(stack, signature, "confirmed");
    return signature;
  },
  // A fill counts once finalized (as the poller reads the solver's), a refund once confirmed (as the depository's).
  settle: async (stack, signature) => {
    const { rows } = await stack.pool.query("SELECT 1 FROM crossfill.fill_attempts WHERE tx_hash = $1", [signature]);
    await landed(stack, signature, rows.length > 0 ? "finalized" : "confirmed");
  },
  // Another wallet pays the recipient with the request id as its Memo, as the solver's fill does.
  async forgedFill(stack, quote) {
    const stranger = solana(stack).accounts[3]!;
    const signature = await sendInstructions(connection(stack), stranger, [
      SystemProgram.transfer({
        fromPubkey: stranger.publicKey,
        toPubkey: solana(stack).accounts[2]!.publicKey,
        lamports: BigInt(quote.details.currencyOut.amount),
      }),
      memoInstruction(quote.steps.at(-1).requestId),
    ]);
    await landed(stack, signature, "finalized");
    return signature;
  },
  // A signature of another cluster's (no Solana chain beside this one here: a fresh keypair's signature of nothing).
  wrongChain: (stack) => [{ txHash: bs58.encode(Keypair.generate().secretKey), chainId: stack.solana!.chain.id }],
});
