import {
  createAssociatedTokenAccountIdempotentInstruction,
  createCloseAccountInstruction,
  getAssociatedTokenAddressSync,
} from "@solana/spl-token";
import { Keypair, PublicKey, SystemProgram } from "@solana/web3.js";
import { zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import { sendInstructions } from "../devnet/svm/sendInstructions.js";
import { QUEUES } from "../jobs/queues.js";
import { SOLANA_NATIVE_CURRENCY } from "../src/chains/svm/svmFamily.js";
import { pollStatus } from "./support/pollStatus.js";
import { postQuote } from "./support/postQuote.js";
import { evmToFamilyFillCase } from "./support/evmToFamilyFillCase.js";
import { sendSteps } from "./support/sendSteps.js";
import { useSolanaStack } from "./support/useSolanaStack.js";

/**
 * EVM → Solana (issue 24): the solver pays SOL or devnet USDC from its own Solana wallet with a Memo of the request id,
 * opening the recipient's token account when it has none; `success` once the payment is finalized on the devnet
 * Solana (a slot every 50 ms, finalized 32 slots after landing).
 */
describe("EVM → Solana, end to end", () => {
  const { stack, connection, solana, lamports, tokens } = useSolanaStack();

  const origin = () => stack().devnet.chains[0];
  const evmUsdc = () => origin().currencies.find((currency) => currency.symbol === "USDC")!.address;
  const quote = (recipient: string, originCurrency: string, destinationCurrency: string, amount: bigint) =>
    postQuote(stack().api.url, {
      user: stack().devnet.accounts[0].address,
      originChainId: origin().id,
      destinationChainId: solana().chain.id,
      originCurrency,
      destinationCurrency,
      amount: amount.toString(),
      tradeType: "EXACT_INPUT",
      recipient,
    });
  const fillAttempts = async (requestId: string) =>
    (
      await stack().pool.query<{ tx_hash: string; currency: string; recipient: string }>(
        "SELECT tx_hash, currency, recipient FROM crossfill.fill_attempts WHERE request_id = $1",
        [requestId],
      )
    ).rows;
  const fills = async (requestId: string) =>
    (
      await stack().pool.query<{ tx_hash: string; amount: string }>(
        "SELECT tx_hash, amount FROM crossfill.request_fills WHERE request_id = $1",
        [requestId],
      )
    ).rows;
  const finalized = (signature: string) =>
    connection().getParsedTransaction(signature, { commitment: "finalized", maxSupportedTransactionVersion: 0 });
  const requestsTo = async (recipient: string) =>
    Number(
      (await stack().pool.query("SELECT count(*) FROM crossfill.requests WHERE recipient = $1", [recipient])).rows[0]
        .count,
    );

  /** Quotes, deposits on the EVM origin, and waits for `success`; the request id and the quoted output. */
  async function bridge(recipient: string, originCurrency: string, destinationCurrency: string, amount: bigint) {
    const response = await quote(recipient, originCurrency, destinationCurrency, amount);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const requestId: string = response.body.steps.at(-1).requestId;
    const polling = pollStatus(stack().api.url, requestId, { timeoutMs: 60_000 });
    await sendSteps(response.body, stack().devnet.accounts[0], origin());
    // The fill job run again (a retry, a second worker) while the first may still be signing: one payment.
    const fillQueue = stack().queues.createQueue<{ requestId: string }>(QUEUES.fill);
    for (const run of [1, 2]) await fillQueue.add("fill", { requestId }, { jobId: `again-${requestId}-${run}` });
    const { last } = await polling;
    expect(last.status).toBe("success");
    return { requestId, amountOut: BigInt(response.body.details.currencyOut.amount) };
  }

  it("pays ETH → SOL to a new wallet, with a Memo of the request id, success once finalized; paid once", async () => {
    await evmToFamilyFillCase({
      stack,
      chainId: () => solana().chain.id,
      currency: SOLANA_NATIVE_CURRENCY,
      recipient: () => Keypair.generate().publicKey.toBase58(),
      solver: () => solana().chain.solver!,
      balance: lamports,
      // 0.1 ETH at $3,000 is $300: 2 SOL at $150, less fees.
      amountOut: { above: 1_900_000_000n, below: 2_000_000_000n },
      // Time finalizes it: a slot every 50 ms.
      settle: async () => undefined,
      solverCost: async (signature) => BigInt((await finalized(signature))!.meta!.fee),
      checkFill: async ({ txHash, requestId }) => {
        const tx = await finalized(txHash);
        expect(tx?.meta?.err).toBeNull();
        expect(
          tx?.transaction.message.instructions.map((instruction) =>
            "parsed" in instruction ? instruction.parsed : null,
          ),
        ).toEqual([expect.objectContaining({ type: "transfer" }), requestId]);
      },
    });
  });

  /** The quote's `rent` fee component, and the rest of what the solver keeps (`fees.relayer` is their sum). */
  const rentCharged = (body: any) => {
    const rent = BigInt(body.feeSponsorship.quoted.components.rent.total.amount);
    const { relayer, relayerGas, relayerService } = body.fees;
    expect(BigInt(relayer.amount)).toBe(BigInt(relayerGas.amount) + BigInt(relayerService.amount) + rent);
    return rent;
  };
  /** A wallet whose USDC token account exists, empty, and which holds SOL to close it. */
  async function walletWithTokenAccount() {
    const wallet = Keypair.generate();
    const funder = solana().devnet.accounts[4]!;
    const mint = new PublicKey(solana().devnet.usdcMint);
    const account = getAssociatedTokenAddressSync(mint, wallet.publicKey);
    const signature = await sendInstructions(connection(), funder, [
      SystemProgram.transfer({ fromPubkey: funder.publicKey, toPubkey: wallet.publicKey, lamports: 10_000_000 }),
      createAssociatedTokenAccountIdempotentInstruction(funder.publicKey, account, wallet.publicKey, mint),
    ]);
    await connection().confirmTransaction(signature, "confirmed");
    return { wallet, account };
  }

  it("pays USDC → USDC to a wallet without a token account: opened by the solver, its rent charged in the quote", async () => {
    const recipient = Keypair.generate().publicKey.toBase58();
    const rent = BigInt(await connection().getMinimumBalanceForRentExemption(165));
    // The same quote to a wallet whose token account exists charges no rent: the output differs by the rent fee.
    const existing = await walletWithTokenAccount();
    const toExisting = await quote(
      existing.wallet.publicKey.toBase58(),
      evmUsdc(),
      solana().devnet.usdcMint,
      50_000_000n,
    );
    const toNew = await quote(recipient, evmUsdc(), solana().devnet.usdcMint, 50_000_000n);
    expect(rentCharged(toExisting.body)).toBe(0n);
    const rentFee = rentCharged(toNew.body);
    // 2,039,280 lamports at the devnet's SOL price, in USDC, rounded up.
    expect(rentFee).toBeGreaterThan(0n);
    expect(BigInt(toExisting.body.details.currencyOut.amount) - BigInt(toNew.body.details.currencyOut.amount)).toBe(
      rentFee,
    );
    expect(toNew.body.feeSponsorship.quoted.components.rent.userPays.amount).toBe(rentFee.toString());
    const solverLamports = await lamports(solana().chain.solver!);
    const solverTokens = await tokens(solana().chain.solver!);
    const { requestId, amountOut } = await bridge(recipient, evmUsdc(), solana().devnet.usdcMint, 50_000_000n);
    expect(amountOut).toBe(BigInt(toNew.body.details.currencyOut.amount));
    expect(amountOut).toBeGreaterThan(49_000_000n);
    expect(amountOut).toBeLessThan(50_000_000n);
    expect(await tokens(recipient)).toBe(amountOut);
    expect(solverTokens - (await tokens(solana().chain.solver!))).toBe(amountOut);
    const [attempt] = await fillAttempts(requestId);
    expect(attempt).toMatchObject({ currency: solana().devnet.usdcMint, recipient });
    expect(solverLamports - (await lamports(solana().chain.solver!))).toBe(rent + 5_000n);
    await expect.poll(async () => (await fills(requestId)).length, { timeout: 10_000 }).toBe(1);
  });

  it("refunds, paying nothing on Solana, when the recipient closed its token account after a quote that charged no rent", async () => {
    const { wallet, account } = await walletWithTokenAccount();
    const recipient = wallet.publicKey.toBase58();
    const response = await quote(recipient, evmUsdc(), solana().devnet.usdcMint, 20_000_000n);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(rentCharged(response.body)).toBe(0n);
    // The attack: the account is closed (its rent back to the wallet) before the deposit, so the fill would open it.
    const closed = await sendInstructions(connection(), wallet, [
      createCloseAccountInstruction(account, wallet.publicKey, wallet.publicKey),
    ]);
    await connection().confirmTransaction(closed, "confirmed");
    expect(await connection().getAccountInfo(account)).toBeNull();
    const solverLamports = await lamports(solana().chain.solver!);
    const solverTokens = await tokens(solana().chain.solver!);
    const requestId: string = response.body.steps.at(-1).requestId;
    const polling = pollStatus(stack().api.url, requestId, { until: ["refund"], timeoutMs: 60_000 });
    await sendSteps(response.body, stack().devnet.accounts[0], origin());
    const { last } = await polling;
    expect(last).toMatchObject({ status: "refund", failReason: "NEW_CALLDATA_INCLUDES_HIGHER_RENT_FEE" });
    expect(await fillAttempts(requestId)).toEqual([]);
    expect(await lamports(solana().chain.solver!)).toBe(solverLamports);
    expect(await tokens(solana().chain.solver!)).toBe(solverTokens);
    expect(await connection().getAccountInfo(account)).toBeNull();
  });

  it("refuses a quote whose rent the solver's SOL cannot pay (INSUFFICIENT_FUNDS_FOR_RENT), with nothing stored", async () => {
    const solver = solana().devnet.solver;
    const parking = Keypair.generate();
    const held = await lamports(solver.publicKey.toBase58());
    // The solver keeps 1,000,000 lamports: less than a token account's rent, more than a fill's fee.
    const parked = held - 1_000_000n - 5_000n;
    const move = (from: Keypair, to: PublicKey, amount: bigint) =>
      sendInstructions(connection(), from, [
        SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to, lamports: amount }),
      ]).then((signature) => connection().confirmTransaction(signature, "confirmed"));
    await move(solver, parking.publicKey, parked);
    try {
      // The solver's balance is read at most a second stale.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const recipient = Keypair.generate().publicKey.toBase58();
      const refused = await quote(recipient, evmUsdc(), solana().devnet.usdcMint, 20_000_000n);
      expect(refused).toMatchObject({ status: 400, body: { errorCode: "INSUFFICIENT_FUNDS_FOR_RENT" } });
      expect(await requestsTo(recipient)).toBe(0);
      // A wallet whose token account exists needs no rent: quoted.
      const { wallet } = await walletWithTokenAccount();
      expect((await quote(wallet.publicKey.toBase58(), evmUsdc(), solana().devnet.usdcMint, 20_000_000n)).status).toBe(
        200,
      );
    } finally {
      // Back, less the fee of the way back.
      await move(parking, solver.publicKey, parked - 5_000n);
      // Past the inventory's cached read of the parked balance, for the tests after this one.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
    }
  });

  it("refuses a Solana recipient that is no wallet, with nothing stored", async () => {
    const wallet = Keypair.generate().publicKey;
    const tokenAccount = getAssociatedTokenAddressSync(new PublicKey(solana().devnet.usdcMint), wallet).toBase58();
    const refusals = [
      // an EVM address, base58 that is no 32-byte key, a mint, the native id
      [stack().devnet.accounts[1].address, SOLANA_NATIVE_CURRENCY, "INVALID_ADDRESS"],
      [`${wallet.toBase58().slice(0, -1)}0`, SOLANA_NATIVE_CURRENCY, "INVALID_ADDRESS"],
      [SOLANA_NATIVE_CURRENCY, SOLANA_NATIVE_CURRENCY, "INVALID_ADDRESS"],
      [solana().devnet.usdcMint, SOLANA_NATIVE_CURRENCY, "INVALID_RECIPIENT"],
      // A token account (off the curve) as the recipient of USDC: its own token account could never be spent.
      [tokenAccount, solana().devnet.usdcMint, "INVALID_RECIPIENT"],
    ] as const;
    for (const [recipient, currency, errorCode] of refusals) {
      const originCurrency = currency === SOLANA_NATIVE_CURRENCY ? zeroAddress : evmUsdc();
      const response = await quote(recipient, originCurrency, currency, 10n ** 16n);
      expect(response, recipient).toMatchObject({ status: 400, body: { errorCode } });
      expect(await requestsTo(recipient)).toBe(0);
    }
    // SOL to that token account is a payment to an existing account (it can hold lamports): quoted.
    expect((await quote(tokenAccount, zeroAddress, SOLANA_NATIVE_CURRENCY, 10n ** 16n)).status).toBe(200);
  });
});
