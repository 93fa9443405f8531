import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { Connection, Keypair, PublicKey } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devnetSolanaChain } from "../../../devnet/svm/devnetSolanaChain.js";
import { type DevnetSolana, startDevnetSolana } from "../../../devnet/svm/startDevnetSolana.js";
import { getFillAttempt } from "../../../schema/fillAttempts.js";
import { createFillLedger } from "../../../schema/fillLedger.js";
import { insertTestRequest } from "../../../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../../../test/support/useMigratedDatabase.js";
import type { FillOrder, SolverPort, StuckFillPolicy } from "../adapter.js";
import type { StoredFillAttempt } from "../fillLedger.js";
import { createSvmSolver } from "./createSvmSolver.js";
import { svmChainConfigSchema } from "./svmChainFamily.js";
import { SOLANA_NATIVE_CURRENCY } from "./svmFamily.js";

const POLICY: StuckFillPolicy = { bumpAfterMs: 0, maxBumps: 1, maxBroadcastFailures: 3 };

describe("createSvmSolver", () => {
  const db = useMigratedDatabase();
  let solana: DevnetSolana;
  let solver: SolverPort;
  let connection: Connection;
  beforeAll(async () => {
    // Slots on demand; a landed transaction is confirmed at once and finalized two slots later.
    solana = await startDevnetSolana({ slotMs: 0, confirmedAfterSlots: 0, finalizedAfterSlots: 2 });
    const chain = svmChainConfigSchema.parse({ ...devnetSolanaChain(solana), blockTimeSeconds: 0.05 });
    solver = createSvmSolver({ ...chain, solver: chain.solver! }, solana.solver);
    connection = new Connection(solana.rpcUrl, "confirmed");
  });
  afterAll(() => solana?.stop());

  const orderOf = async (
    currency: string,
    amount: bigint,
    recipient: string,
    quotedRent?: bigint,
  ): Promise<FillOrder> => {
    const request = await insertTestRequest(db.pool, {
      destinationChainId: 792703809,
      destinationCurrency: currency,
      recipient,
    });
    return {
      requestId: request.id,
      orderId: request.orderId,
      currency,
      amount,
      recipient,
      calls: [],
      currencySymbol: currency === SOLANA_NATIVE_CURRENCY ? "SOL" : "USDC",
      ...(quotedRent === undefined ? {} : { quotedRent }),
    };
  };
  /** prepare → sign → store, as the fill job does; the stored fill (the first run's, on a second run). */
  const signAndStore = async (order: FillOrder): Promise<StoredFillAttempt> => {
    const prepared = await solver.prepareFill(order);
    if (!("transaction" in prepared)) throw new Error(JSON.stringify(prepared.refusal.failure));
    await createFillLedger(db.pool).transaction(async (ledger) => {
      const signed = await solver.signTransaction(ledger, prepared.transaction);
      await ledger.storeFill({
        requestId: order.requestId,
        chainId: 792703809,
        solver: solver.solverAddress,
        ...signed,
        currency: order.currency,
        amount: order.amount,
        recipient: order.recipient,
      });
    });
    return (await getFillAttempt(db.pool, order.requestId))!;
  };
  const follow = (attempt: StoredFillAttempt, policy = POLICY) =>
    solver.followFill(attempt, { ledger: createFillLedger(db.pool), policy });
  const lamports = async (address: string | PublicKey) => BigInt(await connection.getBalance(new PublicKey(address)));
  const tokens = async (owner: string) => {
    const account = getAssociatedTokenAddressSync(new PublicKey(solana.usdcMint), new PublicKey(owner));
    return BigInt((await connection.getTokenAccountBalance(account)).value.amount);
  };

  it("pays SOL to a new wallet once, with a Memo of the request id, mined once finalized", async () => {
    const recipient = Keypair.generate().publicKey.toBase58();
    const order = await orderOf(SOLANA_NATIVE_CURRENCY, 2_000_000n, recipient);
    const solverBefore = await lamports(solana.solver.publicKey);
    const first = await signAndStore(order);
    // A second run signs anew (another blockhash, maybe) and keeps the first run's stored fill.
    expect((await signAndStore(order)).txHash).toBe(first.txHash);
    expect(first.rawTx).toMatch(/^[A-Za-z0-9+/=]+$/);
    expect(await follow(first)).toEqual({ state: "in-flight", txHash: first.txHash, action: "re-sent" });
    expect(await follow(first)).toEqual({ state: "in-flight", txHash: first.txHash, action: "re-sent" });
    solana.advance(2);
    const outcome = await follow(first);
    expect(outcome).toMatchObject({ state: "mined", txHash: first.txHash, fee: 5_000n });
    await solver.broadcast(first);
    expect(await lamports(recipient)).toBe(2_000_000n);
    expect(solverBefore - (await lamports(solana.solver.publicKey))).toBe(2_000_000n + 5_000n);
    expect(solver.waitForReceipt).toBeUndefined();
    const receipt = await solver.readReceipt!(first.txHash);
    expect(receipt).toMatchObject({
      succeeded: true,
      blockHash: first.txHash,
      fee: 5_000n,
      fills: [
        { position: 0, requestId: order.requestId, currency: SOLANA_NATIVE_CURRENCY, recipient, amount: 2_000_000n },
      ],
    });
  });

  it("pays USDC to a wallet without a token account: creates it (the solver pays its rent), then transferChecked", async () => {
    const recipient = Keypair.generate().publicKey.toBase58();
    const rent = BigInt(await connection.getMinimumBalanceForRentExemption(165));
    const order = await orderOf(solana.usdcMint, 1_234_567n, recipient, rent);
    const solverLamports = await lamports(solana.solver.publicKey);
    const attempt = await signAndStore(order);
    await follow(attempt);
    solana.advance(2);
    expect(await follow(attempt)).toMatchObject({ state: "mined", txHash: attempt.txHash });
    expect(await tokens(recipient)).toBe(1_234_567n);
    expect(solverLamports - (await lamports(solana.solver.publicKey))).toBe(rent + 5_000n);
    const receipt = await solver.readReceipt!(attempt.txHash);
    expect(receipt?.fills).toEqual([
      { position: 1, requestId: order.requestId, currency: solana.usdcMint, recipient, amount: 1_234_567n },
    ]);
    // The account exists now: a second fill to it creates nothing.
    const again = await signAndStore(await orderOf(solana.usdcMint, 1n, recipient));
    await follow(again);
    solana.advance(2);
    await follow(again);
    expect(await tokens(recipient)).toBe(1_234_568n);
    expect((await solver.readReceipt!(again.txHash))?.fills?.[0]?.position).toBe(0);
  });

  it("refuses to open a token account for more rent than the quote charged (closed after the quote), paying nothing", async () => {
    const recipient = Keypair.generate().publicKey.toBase58();
    const rent = BigInt(await connection.getMinimumBalanceForRentExemption(165));
    const solverLamports = await lamports(solana.solver.publicKey);
    // Quoted while the account existed (no rent charged), or charged a lamport short: the fill is refused unsent.
    for (const charged of [undefined, rent - 1n]) {
      const refused = await solver.prepareFill(await orderOf(solana.usdcMint, 1_000n, recipient, charged));
      expect(refused).toMatchObject({ refusal: { failure: { failReason: "NEW_CALLDATA_INCLUDES_HIGHER_RENT_FEE" } } });
    }
    expect(await lamports(solana.solver.publicKey)).toBe(solverLamports);
    expect(await solver.prepareFill(await orderOf(solana.usdcMint, 1_000n, recipient, rent))).toHaveProperty(
      "transaction",
    );
  });

  it("refuses to pay SPL to an address off the curve, and SOL below rent-exemption to a new account", async () => {
    const wallet = Keypair.generate().publicKey;
    // A token account's address (off the curve) given as the recipient: its own token account could never be spent.
    const tokenAccount = getAssociatedTokenAddressSync(new PublicKey(solana.usdcMint), wallet).toBase58();
    const offCurve = await solver.prepareFill(await orderOf(solana.usdcMint, 5n, tokenAccount));
    expect(offCurve).toMatchObject({ refusal: { failure: { failReason: "INVALID_SENDER" } } });
    const dust = await solver.prepareFill(await orderOf(SOLANA_NATIVE_CURRENCY, 1_000n, wallet.toBase58()));
    expect(dust).toMatchObject({ refusal: { failure: { failReason: "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL" } } });
    const toSolver = await solver.prepareFill(await orderOf(SOLANA_NATIVE_CURRENCY, 2_000_000n, solver.solverAddress));
    expect(toSolver).toHaveProperty("refusal");
  });

  it("signs the fill again with a fresh blockhash once its blockhash expired unlanded, stored before it is sent", async () => {
    const recipient = Keypair.generate().publicKey.toBase58();
    const order = await orderOf(SOLANA_NATIVE_CURRENCY, 3_000_000n, recipient);
    const dropped = await signAndStore(order);
    // Never sent (a node that dropped it): its blockhash expires.
    solana.advance(151);
    const bumped = await follow(dropped);
    expect(bumped).toMatchObject({ state: "in-flight", action: "bumped" });
    const stored = (await getFillAttempt(db.pool, order.requestId))!;
    expect(stored).toMatchObject({ txHash: (bumped as { txHash: string }).txHash, previousTxHashes: [dropped.txHash] });
    expect(stored.txHash).not.toBe(dropped.txHash);
    solana.advance(2);
    expect(await follow(stored)).toMatchObject({ state: "mined", txHash: stored.txHash });
    expect(await lamports(recipient)).toBe(3_000_000n);
    expect(await connection.getSignatureStatus(dropped.txHash, { searchTransactionHistory: true })).toMatchObject({
      value: null,
    });
  });

  it("gives a fill up (cancelled: TRANSACTION_NOT_INCLUDED) when its re-signs are spent and none landed", async () => {
    const recipient = Keypair.generate().publicKey.toBase58();
    const order = await orderOf(SOLANA_NATIVE_CURRENCY, 3_000_000n, recipient);
    const dropped = await signAndStore(order);
    solana.advance(151);
    expect(await follow(dropped, { ...POLICY, maxBumps: 0 })).toEqual({
      state: "cancelled",
      nonceSpentBy: dropped.txHash,
      neverAccepted: false,
    });
    // Nothing of it can land any more: the stored bytes are refused.
    await expect(solver.broadcast(dropped)).rejects.toThrow();
    expect(await lamports(recipient)).toBe(0n);
  });
});
