import { createTransferCheckedInstruction, getAssociatedTokenAddressSync } from "@solana/spl-token";
import { Connection, type Keypair, PublicKey, SystemProgram } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devnetSolanaChain } from "../../devnet/svm/devnetSolanaChain.js";
import { sendInstructions } from "../../devnet/svm/sendInstructions.js";
import { type DevnetSolana, startDevnetSolana } from "../../devnet/svm/startDevnetSolana.js";
import { memoInstruction } from "../../src/chains/svm/memoInstruction.js";
import { svmChainConfigSchema } from "../../src/chains/svm/svmChainFamily.js";
import { svmDepositTargets } from "../../src/chains/svm/svmDepositTargets.js";
import type { PollerCursor, PollerSource, SourcePage } from "../poller/pollerSource.js";
import { solanaSignaturesSource } from "./solanaSignaturesSource.js";

const order = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;
const signal = new AbortController().signal;

describe("solanaSignaturesSource", () => {
  let solana: DevnetSolana;
  let connection: Connection;
  let source: PollerSource;
  beforeAll(async () => {
    solana = await startDevnetSolana({ slotMs: 0, confirmedAfterSlots: 1 });
    connection = new Connection(solana.rpcUrl, "confirmed");
    const targets = svmDepositTargets(svmChainConfigSchema.parse(devnetSolanaChain(solana)));
    source = solanaSignaturesSource({ rpcUrl: solana.rpcUrl, targets, pageTransactions: 2 });
  });
  afterAll(() => solana?.stop());

  const paySol = (payer: Keypair, n: number, lamports = 1_000n) =>
    sendInstructions(connection, payer, [
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: solana.depository.publicKey, lamports }),
      memoInstruction(order(n)),
    ]);
  const payUsdc = (payer: Keypair, n: number) => {
    const mint = new PublicKey(solana.usdcMint);
    return sendInstructions(connection, payer, [
      createTransferCheckedInstruction(
        getAssociatedTokenAddressSync(mint, payer.publicKey),
        mint,
        getAssociatedTokenAddressSync(mint, solana.depository.publicKey),
        payer.publicKey,
        5n,
        6,
      ),
      memoInstruction(order(n)),
    ]);
  };
  /** Reads page after page until nothing more is ready. */
  const readAll = async (after: PollerCursor | undefined) => {
    const pages: Extract<SourcePage, { facts: unknown }>[] = [];
    let cursor = after;
    for (;;) {
      const page = await source.read(cursor, signal);
      if (!("facts" in page)) throw new Error("a Solana source never reports a reorg");
      pages.push(page);
      cursor = page.cursor;
      if (!page.more) return { pages, cursor };
    }
  };

  it("reads the depository's and its token account's deposits oldest first, in pages ending at a slot", async () => {
    const [a, b] = solana.accounts;
    // Slot by slot: SOL, USDC, SOL and a failed one, then SOL unconfirmed.
    await paySol(a!, 1);
    solana.advance(1);
    await payUsdc(b!, 2);
    solana.advance(1);
    await paySol(a!, 3);
    await sendInstructions(
      connection,
      b!,
      [
        SystemProgram.transfer({
          fromPubkey: b!.publicKey,
          toPubkey: solana.depository.publicKey,
          lamports: 10n ** 18n,
        }),
        memoInstruction(order(4)),
      ],
      { skipPreflight: true },
    );
    solana.advance(1);
    await paySol(a!, 5);

    const { pages, cursor } = await readAll(undefined);
    const orders = pages.flatMap((page) => page.facts.deposits.map((fact) => fact.orderId));
    expect(orders).toEqual([order(1), order(2), order(3)]);
    // More than one page of two, none splitting a slot (the third slot's two transactions are read together).
    expect(pages.length).toBeGreaterThan(1);
    const slots = pages.map((page) => page.facts.deposits.map((fact) => fact.blockNumber));
    for (let i = 1; i < slots.length; i++)
      if (slots[i - 1]!.length && slots[i]!.length) expect(slots[i]![0]!).toBeGreaterThan(slots[i - 1]!.at(-1)!);
    expect(cursor!.position).toBe(Number(pages.at(-1)!.facts.deposits.at(-1)!.blockNumber));
    expect(pages.at(-1)!.head).toBe(solana.ledger.slot("confirmed"));

    // Nothing new: the cursor stays. Once the last one is confirmed, it alone is read.
    expect(await source.read(cursor, signal)).toMatchObject({ cursor, more: false, facts: { deposits: [] } });
    solana.advance(1);
    const next = await readAll(cursor);
    expect(next.pages.flatMap((page) => page.facts.deposits.map((fact) => fact.orderId))).toEqual([order(5)]);
    expect(next.cursor!.position).toBeGreaterThan(cursor!.position);

    // A quiet chain: the cursor follows the confirmed head, with the same signatures to read on from.
    solana.advance(5);
    const quiet = await source.read(next.cursor, signal);
    expect(quiet).toMatchObject({
      cursor: { position: solana.ledger.slot("confirmed"), key: next.cursor!.key },
      facts: { deposits: [] },
      more: false,
    });
  });

  it("lists nothing older than its start slot", async () => {
    const start = solana.ledger.slot("processed");
    const late = solanaSignaturesSource({
      rpcUrl: solana.rpcUrl,
      targets: svmDepositTargets(svmChainConfigSchema.parse(devnetSolanaChain(solana))),
      startSlot: start,
    });
    await paySol(solana.accounts[2]!, 6);
    solana.advance(1);
    const page = await late.read(undefined, signal);
    expect("facts" in page && page.facts.deposits.map((fact) => fact.orderId)).toEqual([order(6)]);
  });
});
