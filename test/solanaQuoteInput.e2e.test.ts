import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { Keypair, PublicKey } from "@solana/web3.js";
import bs58 from "bs58";
import { zeroAddress } from "viem";
import { generatePrivateKey, privateKeyToAddress } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { solanaTransactionSize } from "../src/chains/svm/solanaTransactionSize.js";
import { SOLANA_NATIVE_CURRENCY } from "../src/chains/svm/svmFamily.js";
import { paySolanaStep } from "./support/paySolanaStep.js";
import { pollStatus } from "./support/pollStatus.js";
import { postQuote } from "./support/postQuote.js";
import { useSolanaStack } from "./support/useSolanaStack.js";

const USDC_UNIT = 1_000_000n;
const LAMPORTS_PER_SIGNATURE = 5_000n;
const newRecipient = () => privateKeyToAddress(generatePrivateKey());

/**
 * What a Solana quote takes over HTTP (issue 24): `depositFeePayer` (another wallet signs and pays the deposit's fee)
 * through to a landed deposit on the devnet Solana, and every malformed Solana input refused with a 4xx
 * `{message, errorCode}`, never a 500, storing nothing.
 */
describe("Solana quote input over HTTP", () => {
  const { stack, connection, solana, lamports, tokens } = useSolanaStack();

  const usdcMint = () => solana().devnet.usdcMint;
  const fromSolana = (fields: Record<string, unknown>) => ({
    user: solana().devnet.accounts[0]!.publicKey.toBase58(),
    originChainId: solana().chain.id,
    destinationChainId: stack().devnet.chains[0].id,
    originCurrency: usdcMint(),
    destinationCurrency: stack().devnet.chains[0].currencies.find((currency) => currency.symbol === "USDC")!.address,
    amount: (5n * USDC_UNIT).toString(),
    tradeType: "EXACT_INPUT",
    recipient: newRecipient(),
    ...fields,
  });
  const toSolana = (fields: Record<string, unknown>) => ({
    user: stack().devnet.accounts[0].address,
    originChainId: stack().devnet.chains[0].id,
    destinationChainId: solana().chain.id,
    originCurrency: zeroAddress,
    destinationCurrency: SOLANA_NATIVE_CURRENCY,
    amount: (10n ** 17n).toString(),
    tradeType: "EXACT_INPUT",
    recipient: Keypair.generate().publicKey.toBase58(),
    ...fields,
  });
  const storedFromSolana = async () =>
    Number(
      (
        await stack().pool.query("SELECT count(*) FROM crossfill.requests WHERE origin_chain_id = $1", [
          solana().chain.id,
        ])
      ).rows[0].count,
    );

  it("builds the deposit with depositFeePayer as fee payer: it pays the fee, the user only the USDC", async () => {
    const user = solana().devnet.accounts[2]!;
    const payer = solana().devnet.accounts[3]!;
    const amount = 5n * USDC_UNIT;
    const response = await postQuote(
      stack().api.url,
      fromSolana({
        user: user.publicKey.toBase58(),
        amount: amount.toString(),
        depositFeePayer: payer.publicKey.toBase58(),
      }),
    );
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const { requestId, items } = response.body.steps[0];
    // The instructions name the user as the transfer's authority, never the fee payer.
    const signers = items[0].data.instructions.flatMap(
      (instruction: { keys: { pubkey: string; isSigner: boolean }[] }) =>
        instruction.keys.filter((key) => key.isSigner).map((key) => key.pubkey),
    );
    expect(signers).toEqual([user.publicKey.toBase58()]);

    const before = {
      userLamports: await lamports(user.publicKey),
      payerLamports: await lamports(payer.publicKey),
      userTokens: await tokens(user.publicKey),
    };
    const paid = await paySolanaStep(connection(), user, items[0].data, undefined, { payer });
    // The size the gate counts is the size the wallet sends: two signatures, the fee payer's first.
    expect(paid.message.header.numRequiredSignatures).toBe(2);
    expect(solanaTransactionSize(paid.message)).toBe(paid.raw.length);
    await pollStatus(stack().api.url, requestId, { until: ["pending", "submitted", "success"], timeoutMs: 30_000 });

    expect(await lamports(user.publicKey)).toBe(before.userLamports);
    expect(await lamports(payer.publicKey)).toBe(before.payerLamports - 2n * LAMPORTS_PER_SIGNATURE);
    expect(await tokens(user.publicKey)).toBe(before.userTokens - amount);
    const deposit = await stack().pool.query(
      "SELECT depositor, amount::text FROM crossfill.deposit_facts WHERE chain_id = $1 AND tx_hash = $2",
      [solana().chain.id, paid.signature],
    );
    // The depositor (who refunds go to without a refundTo) is the user who moved the tokens, not the fee payer.
    expect(deposit.rows).toEqual([{ depositor: user.publicKey.toBase58(), amount: amount.toString() }]);
  }, 60_000);

  it("refuses a depositFeePayer without the fee, one that is no Solana key, and one on an EVM origin", async () => {
    const empty = Keypair.generate().publicKey.toBase58();
    const broke = await postQuote(stack().api.url, fromSolana({ depositFeePayer: empty }));
    expect(broke.status).toBe(400);
    expect(broke.body).toMatchObject({ errorCode: "INSUFFICIENT_FUNDS", message: expect.stringContaining(empty) });
    const evmPayer = await postQuote(
      stack().api.url,
      fromSolana({ depositFeePayer: stack().devnet.accounts[0].address }),
    );
    expect(evmPayer).toMatchObject({ status: 400, body: { errorCode: "INVALID_ADDRESS" } });
    const onEvm = await postQuote(
      stack().api.url,
      toSolana({ depositFeePayer: solana().devnet.accounts[0]!.publicKey.toBase58() }),
    );
    expect(onEvm).toMatchObject({ status: 400, body: { errorCode: "INVALID_INPUT" } });
    // A SOL deposit whose fee another wallet pays needs of the user only the SOL sent.
    const user = solana().devnet.accounts[4]!;
    const all = await lamports(user.publicKey);
    const exact = await postQuote(
      stack().api.url,
      fromSolana({
        user: user.publicKey.toBase58(),
        originCurrency: SOLANA_NATIVE_CURRENCY,
        destinationCurrency: zeroAddress,
        amount: all.toString(),
        depositFeePayer: solana().devnet.accounts[3]!.publicKey.toBase58(),
      }),
    );
    expect(exact.status, JSON.stringify(exact.body)).toBe(200);
    const over = await postQuote(
      stack().api.url,
      fromSolana({
        user: user.publicKey.toBase58(),
        originCurrency: SOLANA_NATIVE_CURRENCY,
        destinationCurrency: zeroAddress,
        amount: (all + 1n).toString(),
        depositFeePayer: solana().devnet.accounts[3]!.publicKey.toBase58(),
      }),
    );
    expect(over).toMatchObject({ status: 400, body: { errorCode: "INSUFFICIENT_FUNDS" } });
  }, 60_000);

  it("answers every malformed Solana address, key and currency with a 4xx {message, errorCode}, storing nothing", async () => {
    const storedBefore = await storedFromSolana();
    const key = solana().devnet.accounts[0]!.publicKey.toBase58();
    const bytes = bs58.decode(key);
    // An address off the ed25519 curve: a program-derived address (a token account, here).
    const offCurve = getAssociatedTokenAddressSync(new PublicKey(usdcMint()), new PublicKey(key)).toBase58();
    expect(PublicKey.isOnCurve(new PublicKey(offCurve))).toBe(false);
    const malformed = [
      `${key.slice(0, 10)}0${key.slice(11)}`, // "0" is no base58 digit
      `${key.slice(0, 10)}l${key.slice(11)}`, // nor is "l"
      bs58.encode(bytes.slice(0, 31)), // 31 bytes
      bs58.encode(Buffer.concat([bytes, Buffer.from([7])])), // 33 bytes
      bs58.encode(Buffer.alloc(64, 9)), // a signature's length
      `${key}\u0000`,
      `\u0000${key}`,
      `${key.slice(0, 20)}\u0000${key.slice(21)}`,
      ` ${key}`,
      `${key}\n`,
      `1${key}`, // a leading zero byte more: no canonical 32-byte key
      "",
      "1".repeat(200),
      "\u{1F600}".repeat(11),
      SOLANA_NATIVE_CURRENCY, // the native id is no address
      stack().devnet.accounts[0].address,
    ];
    const bodies: [string, unknown][] = [];
    for (const value of malformed) {
      bodies.push([`user ${JSON.stringify(value)}`, fromSolana({ user: value })]);
      bodies.push([`refundTo ${JSON.stringify(value)}`, fromSolana({ refundTo: value })]);
      bodies.push([`depositFeePayer ${JSON.stringify(value)}`, fromSolana({ depositFeePayer: value })]);
      bodies.push([`recipient on Solana ${JSON.stringify(value)}`, toSolana({ recipient: value })]);
      // The native id is a currency (SOL), only no address.
      if (value === SOLANA_NATIVE_CURRENCY) continue;
      bodies.push([`originCurrency ${JSON.stringify(value)}`, fromSolana({ originCurrency: value })]);
      bodies.push([`destinationCurrency ${JSON.stringify(value)}`, toSolana({ destinationCurrency: value })]);
    }
    // A mint spelled in another case is another (unlisted) key; the USDC mint and a token account as recipients.
    const swapped = usdcMint().replace(/[a-z]/, (letter) => letter.toUpperCase());
    bodies.push(["a mint in another case", fromSolana({ originCurrency: swapped })]);
    bodies.push(["the mint as recipient", toSolana({ destinationCurrency: usdcMint(), recipient: usdcMint() })]);
    bodies.push(["an off-curve recipient of USDC", toSolana({ destinationCurrency: usdcMint(), recipient: offCurve })]);
    bodies.push(["a number as user", fromSolana({ user: 12345 })]);
    bodies.push(["an object as recipient", toSolana({ recipient: { key } })]);
    bodies.push(["an amount with NUL", fromSolana({ amount: "5000000\u0000" })]);

    const answers: [string, string, number, unknown][] = [];
    for (const path of ["/quote", "/quote/v2", "/price"])
      for (const [what, body] of bodies) {
        const response = await fetch(`${stack().api.url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        answers.push([path, what, response.status, await response.json()]);
      }
    const wrong = answers.filter(
      ([, , status, body]) =>
        status < 400 ||
        status >= 500 ||
        typeof (body as { message?: unknown }).message !== "string" ||
        typeof (body as { errorCode?: unknown }).errorCode !== "string",
    );
    expect(wrong.map(([path, what, status, body]) => [path, what, status, JSON.stringify(body).slice(0, 200)])).toEqual(
      [],
    );
    const codeOf = (path: string, what: string) =>
      (answers.find(([p, w]) => p === path && w === what)![3] as { errorCode: string }).errorCode;
    expect(codeOf("/quote/v2", "the mint as recipient")).toBe("INVALID_RECIPIENT");
    expect(codeOf("/quote/v2", "an off-curve recipient of USDC")).toBe("INVALID_RECIPIENT");
    expect(codeOf("/quote/v2", "a mint in another case")).toBe("UNSUPPORTED_CURRENCY");
    expect(codeOf("/quote/v2", `recipient on Solana ${JSON.stringify(stack().devnet.accounts[0].address)}`)).toBe(
      "INVALID_ADDRESS",
    );
    expect(codeOf("/quote/v2", `user ${JSON.stringify(bs58.encode(bytes.slice(0, 31)))}`)).toBe("INVALID_ADDRESS");
    expect(await storedFromSolana()).toBe(storedBefore);
  }, 120_000);
});
