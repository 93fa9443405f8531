import { createTransferCheckedInstruction, getAssociatedTokenAddressSync } from "@solana/spl-token";
import { Keypair, PublicKey, SystemProgram, type TransactionInstruction } from "@solana/web3.js";
import { zeroAddress } from "viem";
import { privateKeyToAddress, generatePrivateKey } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { sendInstructions } from "../devnet/svm/sendInstructions.js";
import { DEBUG_FORCE_REFUND_REFERRER } from "../jobs/createFillProcessor.js";
import { memoInstruction } from "../src/chains/svm/memoInstruction.js";
import { SOLANA_NATIVE_CURRENCY } from "../src/chains/svm/svmFamily.js";
import { paySolanaStep } from "./support/paySolanaStep.js";
import { pollStatus } from "./support/pollStatus.js";
import { postQuote } from "./support/postQuote.js";
import { useSolanaStack } from "./support/useSolanaStack.js";
import { unmatchedRefundsCase } from "./support/unmatchedRefundsCase.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const SOL = 1_000_000_000n;
/** Slots before a deposit naming no order is refunded: 6 s of the stack's 50 ms slots (finalized after 32). */
const AFTER_SLOTS = 120;
/** A refund's network fee: one signature. */
const REFUND_FEE = 5_000n;

/**
 * Refunds of Solana deposits (issue 24) on the devnet Solana: a refund whose blockhash expires unlanded is signed anew
 * and lands once; deposits naming no order are paid back after the chain's time, in the currency they paid.
 */
describe("Solana refunds, end to end", () => {
  const { stack, connection, lamports, tokens } = useSolanaStack(
    { solanaRefundUnmatchedAfterBlocks: AFTER_SLOTS },
    { commitment: "processed" },
  );

  const devnet = () => stack().solana!.devnet;
  const depository = () => devnet().depository.publicKey;
  const usdcMint = () => new PublicKey(devnet().usdcMint);
  const feeOf = async (signature: string) =>
    BigInt((await connection().getTransaction(signature, { maxSupportedTransactionVersion: 0 }))!.meta!.fee);
  /** The depository's landed transactions whose Memo is `memo`. */
  const depositoryPaymentsNamed = async (memo: string) =>
    (await connection().getSignaturesForAddress(depository(), { limit: 1000 })).filter(
      (entry) => entry.err === null && entry.memo?.endsWith(memo),
    );

  it("re-signs a refund whose blockhash expired unlanded; it lands once and pays back to the lamport", async () => {
    const user = devnet().accounts[0]!;
    const response = await postQuote(stack().api.url, {
      user: user.publicKey.toBase58(),
      originChainId: stack().solana!.chain.id,
      destinationChainId: stack().devnet.chains[0].id,
      originCurrency: SOLANA_NATIVE_CURRENCY,
      destinationCurrency: zeroAddress,
      amount: (SOL / 10n).toString(),
      tradeType: "EXACT_INPUT",
      recipient: privateKeyToAddress(generatePrivateKey()),
      referrer: DEBUG_FORCE_REFUND_REFERRER,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const { requestId } = response.body.steps[0];
    const orderId: string = response.body.protocol.v2.orderId;
    const refund = async () =>
      (
        await stack().pool.query<{ status: string; tx_hash: string | null; raw_tx: string | null; amount: string }>(
          "SELECT status, tx_hash, raw_tx, amount FROM crossfill.refunds WHERE request_id = $1",
          [requestId],
        )
      ).rows[0];
    const [userBefore, depositoryBefore] = [await lamports(user.publicKey), await lamports(depository())];

    // The cluster drops what the depository sends: the refund is sent, and lands nowhere.
    devnet().ledger.dropTransactionsOf(depository().toBase58());
    const { signature } = await paySolanaStep(connection(), user, response.body.steps[0].items[0].data);
    await expect.poll(async () => (await refund())?.status, { timeout: 30_000 }).toBe("sent");
    const first = (await refund())!;
    // Still valid: re-sent as it is, never re-signed.
    await sleep(3_000);
    expect((await refund())!.tx_hash).toBe(first.tx_hash);

    // Expired: the refund is signed anew with a fresh blockhash and stored in its place before it is sent.
    devnet().advance(200);
    await expect.poll(async () => (await refund())!.tx_hash, { timeout: 15_000 }).not.toBe(first.tx_hash);
    devnet().ledger.dropTransactionsOf(depository().toBase58(), false);
    // The first one can never land now.
    await expect(connection().sendRawTransaction(Buffer.from(first.raw_tx!, "base64"))).rejects.toThrow(
      /Blockhash not found/,
    );
    await expect.poll(async () => (await refund())!.status, { timeout: 30_000 }).toBe("confirmed");
    const { last } = await pollStatus(stack().api.url, requestId, { timeoutMs: 30_000, until: ["refund"] });
    expect(last.status).toBe("refund");

    // Paid once: besides the deposit, one payment of the depository names the order, and it is the stored one.
    const landed = (await refund())!;
    expect(
      (await depositoryPaymentsNamed(orderId)).map((entry) => entry.signature).filter((named) => named !== signature),
    ).toEqual([landed.tx_hash]);
    expect(await connection().getSignatureStatus(first.tx_hash!, { searchTransactionHistory: true })).toMatchObject({
      value: null,
    });
    // To the lamport: the deposit back less one refund fee; the depository ends where it started.
    expect(BigInt(landed.amount)).toBe(SOL / 10n - REFUND_FEE);
    expect(userBefore - (await lamports(user.publicKey))).toBe((await feeOf(signature)) + REFUND_FEE);
    expect(await lamports(depository())).toBe(depositoryBefore);
  }, 120_000);

  it("refunds SOL and USDC deposits naming no order after the chain's slots, less the fee; too little is kept", async () => {
    const [, bare, malformed, small] = devnet().accounts as [Keypair, Keypair, Keypair, Keypair];
    const unknownOrder = `0x${"6b".repeat(32)}`;
    const paySol = (payer: Keypair, amount: bigint, memo?: string) =>
      sendInstructions(connection(), payer, [
        SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: depository(), lamports: amount }),
        ...(memo === undefined ? [] : [memoInstruction(memo)]),
      ]);
    const payUsdc = (payer: Keypair, amount: bigint, memo: string): Promise<string> =>
      sendInstructions(connection(), payer, [
        createTransferCheckedInstruction(
          getAssociatedTokenAddressSync(usdcMint(), payer.publicKey),
          usdcMint(),
          getAssociatedTokenAddressSync(usdcMint(), depository()),
          payer.publicKey,
          amount,
          6,
        ) as TransactionInstruction,
        memoInstruction(memo),
      ]);
    const payers = new Map([bare, malformed, small].map((payer) => [payer.publicKey.toBase58(), payer.publicKey]));
    /** What an account holds of a currency. */
    const holding = (owner: PublicKey, currency: string) =>
      currency === SOLANA_NATIVE_CURRENCY ? lamports(owner) : tokens(owner);
    const before = new Map<string, bigint>();
    let depositoryBefore = { lamports: 0n, tokens: 0n };
    let malformedDeposit = "";
    // 5,000 lamports at $150 a SOL is $0.00075: 750 units of USDC at $1.
    const usdcFee = 750n;
    await unmatchedRefundsCase({
      stack: () => stack(),
      async pay() {
        for (const [address, owner] of payers)
          for (const currency of [SOLANA_NATIVE_CURRENCY, devnet().usdcMint])
            before.set(`${address}:${currency}`, await holding(owner, currency));
        depositoryBefore = { lamports: await lamports(depository()), tokens: await tokens(depository()) };
        const payment = (payer: Keypair, currency: string, amount: bigint, orderId: string, refundable = true) => ({
          payer: payer.publicKey.toBase58(),
          currency,
          amount,
          orderId,
          refundable,
        });
        return [
          { txHash: await paySol(bare, SOL / 20n), ...payment(bare, SOLANA_NATIVE_CURRENCY, SOL / 20n, "") },
          {
            txHash: (malformedDeposit = await payUsdc(malformed, 7_000_000n, "0x1234")),
            ...payment(malformed, devnet().usdcMint, 7_000_000n, ""),
          },
          // Less than a new account's rent-exempt minimum once the fee is taken: no refund could be paid.
          {
            txHash: await paySol(small, 100_000n, unknownOrder),
            ...payment(small, SOLANA_NATIVE_CURRENCY, 100_000n, unknownOrder, false),
          },
        ];
      },
      // The slots pass with time: the facts are recorded, and the rule is met, as they do.
      record: async () => undefined,
      shortOfRule: async () => undefined,
      watchMs: 2_500,
      pastRule: async () => undefined,
      confirmSent: async () => undefined,
      async payerLoss(payment) {
        const owner = payers.get(payment.payer)!;
        const lost = before.get(`${payment.payer}:${payment.currency}`)! - (await holding(owner, payment.currency!));
        // The deposit's own network fee is paid in SOL.
        return payment.currency === SOLANA_NATIVE_CURRENCY ? lost - (await feeOf(payment.txHash)) : lost;
      },
      async checkRefund(row, payment) {
        expect(row.fee).toBe(payment.currency === SOLANA_NATIVE_CURRENCY ? REFUND_FEE.toString() : usdcFee.toString());
        // One landed payment of the depository.
        const { value } = await connection().getSignatureStatus(row.tx_hash!, { searchTransactionHistory: true });
        expect(value).toMatchObject({ err: null, confirmationStatus: "finalized" });
      },
      timeoutMs: 30_000,
      quietMs: 3_000,
    });
    // A USDC payer pays no SOL for its refund: only its deposit's fee.
    const malformedLamports = before.get(`${malformed.publicKey.toBase58()}:${SOLANA_NATIVE_CURRENCY}`)!;
    expect(malformedLamports - (await lamports(malformed.publicKey))).toBe(await feeOf(malformedDeposit));
    // The depository keeps the small deposit and the USDC refund's fee, which it paid in SOL (the SOL refund's fee
    // came out of its deposit).
    expect((await lamports(depository())) - depositoryBefore.lamports).toBe(100_000n - REFUND_FEE);
    expect((await tokens(depository())) - depositoryBefore.tokens).toBe(usdcFee);
  }, 120_000);

  it("charges a USDC refund to a wallet without a token account the account's rent: a fresh refundTo drains nothing", async () => {
    const user = devnet().accounts[4]!;
    const refundTo = Keypair.generate().publicKey;
    const deposit = 5_000_000n;
    // Attack: each refund to a new wallet would open its token account at the depository's cost (rent the wallet's
    // owner can take back by closing it).
    const response = await postQuote(stack().api.url, {
      user: user.publicKey.toBase58(),
      originChainId: stack().solana!.chain.id,
      destinationChainId: stack().devnet.chains[0].id,
      originCurrency: devnet().usdcMint,
      destinationCurrency: zeroAddress,
      amount: deposit.toString(),
      tradeType: "EXACT_INPUT",
      recipient: privateKeyToAddress(generatePrivateKey()),
      refundTo: refundTo.toBase58(),
      referrer: DEBUG_FORCE_REFUND_REFERRER,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const { requestId } = response.body.steps[0];
    const before = { lamports: await lamports(depository()), tokens: await tokens(depository()) };
    await paySolanaStep(connection(), user, response.body.steps[0].items[0].data);
    const { last } = await pollStatus(stack().api.url, requestId, { timeoutMs: 60_000, until: ["refund"] });
    expect(last.status).toBe("refund");
    const rent = BigInt(await connection().getMinimumBalanceForRentExemption(165));
    // The fee and the rent, 2,044,280 lamports at $150 a SOL, are $0.306642: that many USDC units at $1.
    const charged = ((REFUND_FEE + rent) * 150n) / 1_000n;
    const [refund] = (
      await stack().pool.query(
        "SELECT status, amount, gas_cost, recipient FROM crossfill.refunds WHERE request_id = $1",
        [requestId],
      )
    ).rows;
    expect(refund).toMatchObject({
      status: "confirmed",
      recipient: refundTo.toBase58(),
      amount: (deposit - charged).toString(),
      gas_cost: charged.toString(),
    });
    await expect.poll(() => tokens(refundTo), { timeout: 15_000 }).toBe(deposit - charged);
    // The depository paid the rent and the fee in SOL and kept their worth in USDC.
    expect(before.lamports - (await lamports(depository()))).toBe(REFUND_FEE + rent);
    expect((await tokens(depository())) - before.tokens).toBe(charged);
  }, 120_000);
});
