import { createTransferCheckedInstruction, getAssociatedTokenAddressSync } from "@solana/spl-token";
import { Keypair, PublicKey, SystemProgram, type TransactionInstruction } from "@solana/web3.js";
import { type Address, zeroAddress } from "viem";
import { privateKeyToAddress, generatePrivateKey } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { DEBUG_FORCE_REFUND_REFERRER } from "../jobs/createFillProcessor.js";
import { createEvmChainClient } from "../src/chains/evm/evmChainClient.js";
import { memoInstruction } from "../src/chains/svm/memoInstruction.js";
import { SOLANA_NATIVE_CURRENCY } from "../src/chains/svm/svmFamily.js";
import { paySolanaStep } from "./support/paySolanaStep.js";
import { pollStatus } from "./support/pollStatus.js";
import { postGraphql } from "./support/postGraphql.js";
import { postQuote } from "./support/postQuote.js";
import { useSolanaStack } from "./support/useSolanaStack.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const SOL = 1_000_000_000n;
const newRecipient = () => privateKeyToAddress(generatePrivateKey());

/**
 * Deposits from Solana (issue 24): the devnet Solana (litesvm behind the JSON-RPC, a slot every 50 ms, finalized 32
 * slots after landing) as an origin of the whole service. The user's wallet compiles the quote's instructions as the
 * official SVM adapter does; the poller reads the depository's signatures; the EVM fill waits for `finalized`.
 */
describe("Solana deposits", () => {
  const { stack, connection, solana, lamports, tokens } = useSolanaStack();

  const evm = () => createEvmChainClient(stack().devnet.chains[0]);
  const usdcMint = () => solana().devnet.usdcMint;
  const evmUsdc = () => stack().devnet.chains[0].currencies.find((currency) => currency.symbol === "USDC")!.address;
  const quote = (user: Keypair, currency: string, amount: bigint, recipient: string, destinationCurrency?: string) =>
    postQuote(stack().api.url, {
      user: user.publicKey.toBase58(),
      originChainId: solana().chain.id,
      destinationChainId: stack().devnet.chains[0].id,
      originCurrency: currency,
      destinationCurrency: destinationCurrency ?? zeroAddress,
      amount: amount.toString(),
      tradeType: "EXACT_INPUT",
      recipient,
    });
  const fillAttempts = async (requestId: string) =>
    Number(
      (await stack().pool.query("SELECT count(*) FROM crossfill.fill_attempts WHERE request_id = $1", [requestId]))
        .rows[0].count,
    );
  const depositsOf = async (txHash: string) =>
    (
      await stack().pool.query("SELECT * FROM crossfill.deposit_facts WHERE chain_id = $1 AND tx_hash = $2", [
        solana().chain.id,
        txHash,
      ])
    ).rows;

  it("lists Solana in GET /chains and GraphQL: vmType svm, native SOL, the USDC mint, the depository", async () => {
    const { chains } = await (await fetch(`${stack().api.url}/chains`)).json();
    const chain = chains.find((candidate: { id: number }) => candidate.id === 792703809);
    expect(chain).toMatchObject({
      vmType: "svm",
      currency: { symbol: "SOL", address: SOLANA_NATIVE_CURRENCY, decimals: 9 },
      erc20Currencies: [{ symbol: "USDC", address: usdcMint(), decimals: 6 }],
      protocol: { v2: { depository: solana().devnet.depository.publicKey.toBase58() } },
    });
    const graphql = await postGraphql(stack().api.url, "{ chains { id vmType depository currency { address } } }");
    expect(graphql.data.chains).toContainEqual({
      id: 792703809,
      vmType: "svm",
      depository: solana().devnet.depository.publicKey.toBase58(),
      currency: { address: SOLANA_NATIVE_CURRENCY },
    });
  });

  it("refuses what a Solana origin cannot take: too little SOL, an EVM user, an unknown mint", async () => {
    const poor = Keypair.generate();
    const broke = await quote(poor, SOLANA_NATIVE_CURRENCY, SOL, newRecipient());
    expect(broke.status).toBe(400);
    expect(broke.body.errorCode).toBe("INSUFFICIENT_FUNDS");
    const evmUser = await postQuote(stack().api.url, {
      user: stack().devnet.accounts[0].address,
      originChainId: solana().chain.id,
      destinationChainId: stack().devnet.chains[0].id,
      originCurrency: SOLANA_NATIVE_CURRENCY,
      destinationCurrency: zeroAddress,
      amount: SOL.toString(),
      tradeType: "EXACT_INPUT",
      recipient: newRecipient(),
    });
    expect(evmUser.status).toBe(400);
    const unknownMint = await quote(
      solana().devnet.accounts[0]!,
      Keypair.generate().publicKey.toBase58(),
      SOL,
      newRecipient(),
    );
    expect(unknownMint.status).toBe(400);
    // A Solana recipient on the EVM destination, and an EVM recipient on Solana as a destination.
    const solanaRecipient = await quote(
      solana().devnet.accounts[0]!,
      SOLANA_NATIVE_CURRENCY,
      SOL,
      Keypair.generate().publicKey.toBase58(),
    );
    expect(solanaRecipient.body.errorCode).toBe("INVALID_ADDRESS");
    const toSolana = await postQuote(stack().api.url, {
      user: stack().devnet.accounts[0].address,
      originChainId: stack().devnet.chains[0].id,
      destinationChainId: solana().chain.id,
      originCurrency: zeroAddress,
      destinationCurrency: SOLANA_NATIVE_CURRENCY,
      amount: SOL.toString(),
      tradeType: "EXACT_INPUT",
      recipient: newRecipient(),
    });
    expect(toSolana).toMatchObject({ status: 400, body: { errorCode: "INVALID_ADDRESS" } });
    const stored = await stack().pool.query("SELECT count(*) FROM crossfill.requests WHERE origin_chain_id = $1", [
      solana().chain.id,
    ]);
    expect(Number(stored.rows[0].count)).toBe(0);
  });

  it("bridges SOL to ETH: pending once the deposit is confirmed, filled once it is finalized", async () => {
    const user = solana().devnet.accounts[0]!;
    const recipient = newRecipient();
    const response = await quote(user, SOLANA_NATIVE_CURRENCY, SOL, recipient);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const { requestId } = response.body.steps[0];
    const out = BigInt(response.body.details.currencyOut.amount);
    const depository = solana().devnet.depository.publicKey;
    const [userBefore, depositoryBefore] = [await lamports(user.publicKey), await lamports(depository)];

    const { signature } = await paySolanaStep(connection(), user, response.body.steps[0].items[0].data);
    const { statuses, last } = await pollStatus(stack().api.url, requestId, { timeoutMs: 30_000 });
    expect(statuses.filter((status) => status !== "waiting" && status !== "submitted")).toEqual(["pending", "success"]);
    expect(last.inTxHashes).toEqual([signature]);

    // The fill waited for finality: the deposit was finalized before the fill was sent.
    const { value } = await connection().getSignatureStatuses([signature]);
    expect(value[0]!.confirmationStatus).toBe("finalized");
    expect(await evm().publicClient.getBalance({ address: recipient as Address })).toBe(out);
    expect((await lamports(depository)) - depositoryBefore).toBe(SOL);
    const fee = BigInt(
      (await connection().getTransaction(signature, { maxSupportedTransactionVersion: 0 }))!.meta!.fee,
    );
    expect(userBefore - (await lamports(user.publicKey))).toBe(SOL + fee);
    expect(await depositsOf(signature)).toMatchObject([
      { depositor: user.publicKey.toBase58(), currency: SOLANA_NATIVE_CURRENCY, amount: SOL.toString() },
    ]);
  }, 60_000);

  it("refunds a SOL deposit whose fill fails on Solana, from the depository, less the refund's fee", async () => {
    const user = solana().devnet.accounts[4]!;
    const response = await postQuote(stack().api.url, {
      user: user.publicKey.toBase58(),
      originChainId: solana().chain.id,
      destinationChainId: stack().devnet.chains[0].id,
      originCurrency: SOLANA_NATIVE_CURRENCY,
      destinationCurrency: zeroAddress,
      amount: (SOL / 10n).toString(),
      tradeType: "EXACT_INPUT",
      recipient: newRecipient(),
      referrer: DEBUG_FORCE_REFUND_REFERRER,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const { requestId } = response.body.steps[0];
    const depository = solana().devnet.depository.publicKey;
    const [userBefore, depositoryBefore] = [await lamports(user.publicKey), await lamports(depository)];
    const { signature } = await paySolanaStep(connection(), user, response.body.steps[0].items[0].data);
    const { last } = await pollStatus(stack().api.url, requestId, { timeoutMs: 30_000, until: ["refund"] });
    expect(last.status).toBe("refund");
    const refunds = async () =>
      (
        await stack().pool.query<{ status: string; tx_hash: string; amount: string }>(
          "SELECT status, tx_hash, amount FROM crossfill.refunds WHERE request_id = $1",
          [requestId],
        )
      ).rows;
    // Confirmed once the poller reads the depository's refund (its Memo names the order).
    await expect.poll(async () => (await refunds())[0]?.status, { timeout: 15_000 }).toBe("confirmed");
    const [refund] = await refunds();
    const paid = await connection().getParsedTransaction(refund!.tx_hash, { maxSupportedTransactionVersion: 0 });
    expect(paid?.transaction.message.accountKeys[0]!.pubkey.toBase58()).toBe(depository.toBase58());
    expect(
      paid?.transaction.message.instructions.map((instruction) => "parsed" in instruction && instruction.parsed),
    ).toEqual([expect.objectContaining({ type: "transfer" }), response.body.protocol.v2.orderId]);
    // To the lamport: the deposit back less the refund's 5,000-lamport fee; the depository ends where it started.
    const depositFee = BigInt(
      (await connection().getTransaction(signature, { maxSupportedTransactionVersion: 0 }))!.meta!.fee,
    );
    expect(userBefore - (await lamports(user.publicKey))).toBe(depositFee + 5_000n);
    expect(await lamports(depository)).toBe(depositoryBefore);
    expect(await fillAttempts(requestId)).toBe(0);
  }, 60_000);

  it("bridges devnet USDC to EVM USDC through the depository's token account", async () => {
    const user = solana().devnet.accounts[1]!;
    const recipient = newRecipient();
    const amount = 25_000_000n;
    const response = await quote(user, usdcMint(), amount, recipient, evmUsdc());
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const { requestId } = response.body.steps[0];
    const out = BigInt(response.body.details.currencyOut.amount);
    const depository = solana().devnet.depository.publicKey;
    const [userBefore, depositoryBefore] = [await tokens(user.publicKey), await tokens(depository)];

    await paySolanaStep(connection(), user, response.body.steps[0].items[0].data);
    const { statuses } = await pollStatus(stack().api.url, requestId, { timeoutMs: 30_000 });
    expect(statuses.filter((status) => status !== "waiting" && status !== "submitted")).toEqual(["pending", "success"]);
    expect(await evm().balanceOf(recipient as Address, evmUsdc() as Address)).toBe(out);
    expect(userBefore - (await tokens(user.publicKey))).toBe(amount);
    expect((await tokens(depository)) - depositoryBefore).toBe(amount);
  }, 60_000);

  describe("attacks: the attacker gains nothing", () => {
    /** Waits until the deposit is finalized and the worker had time to act on it. */
    const settle = async (signature: string) => {
      for (let tries = 0; tries < 100; tries++) {
        const { value } = await connection().getSignatureStatuses([signature]);
        if (value[0]?.confirmationStatus === "finalized") break;
        await sleep(100);
      }
      await sleep(2_000);
    };

    it("a deposit of less than quoted is not filled", async () => {
      const user = solana().devnet.accounts[2]!;
      const recipient = newRecipient();
      const response = await quote(user, SOLANA_NATIVE_CURRENCY, SOL, recipient);
      expect(response.status).toBe(200);
      const { requestId } = response.body.steps[0];
      const userBefore = await lamports(user.publicKey);
      const { signature } = await paySolanaStep(
        connection(),
        user,
        response.body.steps[0].items[0].data,
        ([, memo]) => [
          SystemProgram.transfer({
            fromPubkey: user.publicKey,
            toPubkey: solana().devnet.depository.publicKey,
            lamports: SOL / 2n,
          }),
          memo!,
        ],
      );
      await settle(signature);
      expect(await fillAttempts(requestId)).toBe(0);
      expect(await evm().publicClient.getBalance({ address: recipient as Address })).toBe(0n);
      // Refunded from the depository: what was paid, less the refund's fee.
      const { last } = await pollStatus(stack().api.url, requestId, { timeoutMs: 30_000, until: ["refund"] });
      expect(last).toMatchObject({ status: "refund", failReason: "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL" });
      const depositFee = BigInt(
        (await connection().getTransaction(signature, { maxSupportedTransactionVersion: 0 }))!.meta!.fee,
      );
      await expect
        .poll(async () => userBefore - (await lamports(user.publicKey)), { timeout: 15_000 })
        .toBe(depositFee + 5_000n);
    }, 60_000);

    it("a deposit naming another's order pays that order, never the attacker's", async () => {
      const victim = solana().devnet.accounts[3]!;
      const attacker = solana().devnet.accounts[4]!;
      const victimRecipient = newRecipient();
      const attackerRecipient = newRecipient();
      const victimQuote = await quote(victim, SOLANA_NATIVE_CURRENCY, SOL, victimRecipient);
      const attackerQuote = await quote(attacker, SOLANA_NATIVE_CURRENCY, SOL, attackerRecipient);
      expect([victimQuote.status, attackerQuote.status]).toEqual([200, 200]);
      const victimMemo = victimQuote.body.steps[0].items[0].data.instructions[1];
      // The attacker pays its own quote's amount with the victim's memo.
      const { signature } = await paySolanaStep(
        connection(),
        attacker,
        attackerQuote.body.steps[0].items[0].data,
        ([transfer]) => [
          transfer!,
          {
            ...victimMemo,
            programId: new PublicKey(victimMemo.programId),
            keys: [],
            data: Buffer.from(victimMemo.data, "hex"),
          } as TransactionInstruction,
        ],
      );
      await pollStatus(stack().api.url, victimQuote.body.steps[0].requestId, { timeoutMs: 30_000 });
      await settle(signature);
      // The victim's order was paid (by the attacker), the attacker's was not.
      expect(await evm().publicClient.getBalance({ address: victimRecipient as Address })).toBe(
        BigInt(victimQuote.body.details.currencyOut.amount),
      );
      expect(await fillAttempts(attackerQuote.body.steps[0].requestId)).toBe(0);
      expect(await evm().publicClient.getBalance({ address: attackerRecipient as Address })).toBe(0n);
    }, 60_000);

    it("a failed transaction paying the depository is no deposit", async () => {
      const user = solana().devnet.accounts[2]!;
      const recipient = newRecipient();
      const response = await quote(user, SOLANA_NATIVE_CURRENCY, SOL, recipient);
      expect(response.status).toBe(200);
      const { requestId } = response.body.steps[0];
      const depositoryBefore = await lamports(solana().devnet.depository.publicKey);
      // The transfer and memo as quoted, then a token transfer from an account the user does not have: it fails.
      const stranger = Keypair.generate().publicKey;
      const { signature } = await paySolanaStep(
        connection(),
        user,
        response.body.steps[0].items[0].data,
        (instructions) => [
          ...instructions,
          createTransferCheckedInstruction(
            getAssociatedTokenAddressSync(new PublicKey(usdcMint()), stranger),
            new PublicKey(usdcMint()),
            getAssociatedTokenAddressSync(new PublicKey(usdcMint()), user.publicKey),
            user.publicKey,
            1n,
            6,
          ),
        ],
        { skipPreflight: true },
      );
      await settle(signature);
      const landed = await connection().getTransaction(signature, { maxSupportedTransactionVersion: 0 });
      expect(landed!.meta!.err).not.toBeNull();
      expect(await depositsOf(signature)).toEqual([]);
      expect(await lamports(solana().devnet.depository.publicKey)).toBe(depositoryBefore);
      expect(await fillAttempts(requestId)).toBe(0);
      expect((await (await fetch(`${stack().api.url}/intents/status/v3?requestId=${requestId}`)).json()).status).toBe(
        "waiting",
      );
    }, 60_000);

    it("a deposit without a memo, or naming no order, is recorded for no request and pays no one", async () => {
      const user = solana().devnet.accounts[1]!;
      const recipient = newRecipient();
      const response = await quote(user, SOLANA_NATIVE_CURRENCY, SOL / 10n, recipient);
      expect(response.status).toBe(200);
      const unknownOrder = `0x${"77".repeat(32)}`;
      const bare = await paySolanaStep(connection(), user, response.body.steps[0].items[0].data, ([transfer]) => [
        transfer!,
      ]);
      const unknown = await paySolanaStep(connection(), user, response.body.steps[0].items[0].data, ([transfer]) => [
        transfer!,
        memoInstruction(unknownOrder),
      ]);
      await settle(unknown.signature);
      expect((await depositsOf(bare.signature)).map((row) => row.order_id)).toEqual([""]);
      expect((await depositsOf(unknown.signature)).map((row) => row.order_id)).toEqual([unknownOrder]);
      expect(await fillAttempts(response.body.steps[0].requestId)).toBe(0);
      expect(await evm().publicClient.getBalance({ address: recipient as Address })).toBe(0n);
    }, 60_000);

    it("a deposit sent again is refused by the chain, and filled once", async () => {
      const user = solana().devnet.accounts[0]!;
      const recipient = newRecipient();
      const response = await quote(user, SOLANA_NATIVE_CURRENCY, SOL / 10n, recipient);
      expect(response.status).toBe(200);
      const { requestId } = response.body.steps[0];
      const out = BigInt(response.body.details.currencyOut.amount);
      const { signature, raw } = await paySolanaStep(connection(), user, response.body.steps[0].items[0].data);
      await pollStatus(stack().api.url, requestId, { timeoutMs: 30_000 });
      await expect(connection().sendRawTransaction(raw)).rejects.toThrow();
      // The same memo in a new transaction: a second deposit of the order, which is no second fill.
      const again = await paySolanaStep(connection(), user, response.body.steps[0].items[0].data);
      expect(again.signature).not.toBe(signature);
      await settle(again.signature);
      expect(await fillAttempts(requestId)).toBe(1);
      expect(await evm().publicClient.getBalance({ address: recipient as Address })).toBe(out);
    }, 60_000);
  });
});
