import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import bs58 from "bs58";
import { Connection, Keypair, PublicKey, SystemProgram, TransactionInstruction } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devnetSolanaChain } from "../../../devnet/svm/devnetSolanaChain.js";
import { sendInstructions } from "../../../devnet/svm/sendInstructions.js";
import {
  type DevnetSolana,
  devnetSolanaAccountLamports,
  devnetSolanaAccountUsdc,
  startDevnetSolana,
} from "../../../devnet/svm/startDevnetSolana.js";
import type { DepositStepsInput } from "../adapter.js";
import { SVM_CONFIRMATION_WAIT_SLOTS, createSvmAdapter } from "./createSvmAdapter.js";
import { MEMO_PROGRAM_ID, memoInstruction } from "./memoInstruction.js";
import { svmChainConfigSchema } from "./svmChainFamily.js";
import { SOLANA_NATIVE_CURRENCY } from "./svmFamily.js";
import { svmRoles } from "./svmRoles.js";

const orderId = `0x${"12".repeat(32)}`;
const SLOT_SECONDS = 0.02;
/** The step's instructions as the official adapter rebuilds them. */
const instructionsOf = (data: any) =>
  data.instructions.map(
    (instruction: any) =>
      new TransactionInstruction({
        keys: instruction.keys.map((key: any) => ({ ...key, pubkey: new PublicKey(key.pubkey) })),
        programId: new PublicKey(instruction.programId),
        data: Buffer.from(instruction.data, "hex"),
      }),
  );

describe("createSvmAdapter", () => {
  let solana: DevnetSolana;
  let adapter: ReturnType<typeof createSvmAdapter>;
  beforeAll(async () => {
    solana = await startDevnetSolana({ slotMs: 0, confirmedAfterSlots: 0 });
    adapter = createSvmAdapter(svmChainConfigSchema.parse(devnetSolanaChain(solana)));
  });
  afterAll(() => solana?.stop());

  const user = () => solana.accounts[0]!;
  const input = (currency: string, amount: bigint, who = user().publicKey.toBase58()): DepositStepsInput => ({
    user: who,
    currency: { address: currency, symbol: currency === SOLANA_NATIVE_CURRENCY ? "SOL" : "USDC" } as never,
    amount,
    orderId,
    requestId: `0x${"34".repeat(32)}`,
    allowance: 0n,
    destinationName: "Devnet A",
  });

  it("quotes a SOL deposit as a transfer to the depository and a Memo of the order id, which lands as one fact", async () => {
    const [step] = await adapter.depositSteps(input(SOLANA_NATIVE_CURRENCY, 2_000_000n));
    const data = step!.items[0]!.data as any;
    expect(data.addressLookupTableAddresses).toEqual([]);
    expect(data.instructions.map((instruction: any) => instruction.programId)).toEqual([
      SOLANA_NATIVE_CURRENCY,
      MEMO_PROGRAM_ID,
    ]);
    expect(Buffer.from(data.instructions[1].data, "hex").toString()).toBe(orderId);
    const connection = new Connection(solana.rpcUrl, "confirmed");
    const signature = await sendInstructions(connection, user(), instructionsOf(data));
    expect(await adapter.readDepositFacts(signature)).toMatchObject([
      { chainId: 792703809, txHash: signature, orderId, amount: 2_000_000n, currency: SOLANA_NATIVE_CURRENCY },
    ]);
  });

  it("quotes a USDC deposit as a transferChecked into the depository's token account", async () => {
    const [step] = await adapter.depositSteps(input(solana.usdcMint, 3_000_000n));
    const data = step!.items[0]!.data as any;
    expect(data.instructions[0]).toMatchObject({ programId: "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA" });
    const signature = await sendInstructions(new Connection(solana.rpcUrl, "confirmed"), user(), instructionsOf(data));
    expect(await adapter.readDepositFacts(signature)).toMatchObject([
      { orderId, amount: 3_000_000n, currency: solana.usdcMint, depositor: user().publicKey.toBase58() },
    ]);
    expect(await adapter.balanceOf(solana.depository.publicKey.toBase58(), solana.usdcMint)).toBe(3_000_000n);
  });

  it("refuses a deposit the user cannot pay, and a currency the chain does not list", async () => {
    const poor = Keypair.generate().publicKey.toBase58();
    await expect(adapter.depositSteps(input(SOLANA_NATIVE_CURRENCY, 1n, poor))).rejects.toMatchObject({
      errorCode: "INSUFFICIENT_FUNDS",
      status: 400,
    });
    await expect(
      adapter.depositSteps(input(SOLANA_NATIVE_CURRENCY, devnetSolanaAccountLamports)),
    ).rejects.toMatchObject({ errorCode: "INSUFFICIENT_FUNDS" });
    await expect(adapter.depositSteps(input(solana.usdcMint, devnetSolanaAccountUsdc + 1n))).rejects.toMatchObject({
      errorCode: "INSUFFICIENT_FUNDS",
    });
    await expect(adapter.depositSteps(input(Keypair.generate().publicKey.toBase58(), 1n))).rejects.toMatchObject({
      errorCode: "UNSUPPORTED_CURRENCY",
    });
  });

  it("refuses the depository, the solver and a mint as recipients; 404 for an unknown signature", async () => {
    for (const refused of [solana.depository.publicKey.toBase58(), solana.solver.publicKey.toBase58(), solana.usdcMint])
      expect(adapter.recipientRefusal(refused)?.errorCode).toBe("INVALID_RECIPIENT");
    const wallet = Keypair.generate().publicKey;
    expect(adapter.recipientRefusal(wallet.toBase58())).toBeUndefined();
    // A token account (off the curve) may be paid SOL, never SPL: its own token account could not be spent.
    const tokenAccount = getAssociatedTokenAddressSync(new PublicKey(solana.usdcMint), wallet).toBase58();
    expect(adapter.recipientRefusal(tokenAccount, SOLANA_NATIVE_CURRENCY)).toBeUndefined();
    expect(adapter.recipientRefusal(tokenAccount, solana.usdcMint)?.errorCode).toBe("INVALID_RECIPIENT");
    expect(adapter.recipientRefusal(wallet.toBase58(), solana.usdcMint)).toBeUndefined();
    // A SOL payment may open its recipient's account: at least the rent-exempt minimum, as the chain says.
    expect(adapter.minimumPayout(SOLANA_NATIVE_CURRENCY, wallet.toBase58())).toBe(
      BigInt(await new Connection(solana.rpcUrl).getMinimumBalanceForRentExemption(0)),
    );
    expect(adapter.minimumPayout(solana.usdcMint, wallet.toBase58())).toBe(1n);
    await expect(adapter.readDepositFacts("1".repeat(64))).rejects.toMatchObject({
      errorCode: "TRANSACTION_NOT_FOUND",
      status: 404,
    });
  });

  it("reads the solver's fill once finalized and the depository's refund for the manual index, nothing of another payer", async () => {
    const connection = new Connection(solana.rpcUrl, "confirmed");
    const requestId = `0x${"56".repeat(32)}`;
    const pay = (payer: Keypair, memo: string) =>
      sendInstructions(connection, payer, [
        SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: user().publicKey, lamports: 3_000_000 }),
        memoInstruction(memo),
      ]);
    const fill = await pay(solana.solver, requestId);
    // Confirmed, not finalized: the poller would not list it yet, and neither is it indexed by hand.
    await expect(adapter.readSettlementFacts!(fill)).rejects.toMatchObject({ errorCode: "TRANSACTION_NOT_FOUND" });
    solana.advance(32);
    expect(await adapter.readSettlementFacts!(fill)).toEqual({
      fills: [
        expect.objectContaining({
          chainId: 792703809,
          txHash: fill,
          requestId,
          recipient: user().publicKey.toBase58(),
          amount: 3_000_000n,
        }),
      ],
      withdrawals: [],
    });
    const refund = await pay(solana.depository, orderId);
    expect(await adapter.readSettlementFacts!(refund)).toEqual({
      fills: [],
      withdrawals: [expect.objectContaining({ chainId: 792703809, txHash: refund, orderId, amount: 3_000_000n })],
    });
    // The same memos paid by a user's wallet: neither a fill nor a refund.
    for (const memo of [requestId, orderId])
      expect(await adapter.readSettlementFacts!(await pay(user(), memo))).toEqual({ fills: [], withdrawals: [] });
    await expect(adapter.readSettlementFacts!("1".repeat(64))).rejects.toMatchObject({
      errorCode: "TRANSACTION_NOT_FOUND",
    });
  });

  it("charges the rent of a recipient's missing token account, none for an existing one or for SOL", async () => {
    const rent = BigInt(await new Connection(solana.rpcUrl).getMinimumBalanceForRentExemption(165));
    const fresh = Keypair.generate().publicKey.toBase58();
    expect(await adapter.payoutRent!(solana.usdcMint, fresh)).toBe(rent);
    expect(await adapter.payoutRent!(SOLANA_NATIVE_CURRENCY, fresh)).toBe(0n);
    // The test accounts hold USDC: their token accounts exist.
    expect(await adapter.payoutRent!(solana.usdcMint, user().publicKey.toBase58())).toBe(0n);
  });

  it("pays refunds only with the depository's key (else an operator does), fills only with the solver's", async () => {
    const chain = svmChainConfigSchema.parse(devnetSolanaChain(solana));
    const refund = { orderId, currency: SOLANA_NATIVE_CURRENCY, recipient: chain.solver!, amount: 1n };
    expect(await svmRoles(chain).refunder!.prepareRefund(refund)).toEqual({
      refusal: expect.stringContaining("SOLANA_DEPOSITORY_SECRET_KEY"),
    });
    const wrongDepository = { depositorySecretKey: bs58.encode(Keypair.generate().secretKey) };
    expect(() => svmRoles(chain, wrongDepository)).toThrow(/not the key of chain/);
    // The gateway's roles hold no key: its solver signs nothing; the worker's need the solver's own key.
    expect(svmRoles(chain).solver?.solverAddress).toBe(chain.solver);
    await expect(
      svmRoles(chain).solver!.signTransaction({} as never, { chainId: chain.id, payload: { instructions: [] } }),
    ).rejects.toThrow(/holds no key/);
    const { solver: _, ...withoutSolver } = chain;
    expect(svmRoles(withoutSolver).solver).toBeUndefined();
    expect(() => svmRoles(chain, { signsFills: true })).toThrow(/SOLANA_SOLVER_SECRET_KEY is required/);
    const other = bs58.encode(Keypair.generate().secretKey);
    expect(() => svmRoles(chain, { signsFills: true, solverSecretKey: other })).toThrow(/not the key/);
    const solverKey = bs58.encode(solana.solver.secretKey);
    expect(svmRoles(chain, { signsFills: true, solverSecretKey: solverKey }).solver?.solverAddress).toBe(chain.solver);
    expect("signOrder" in adapter).toBe(false);
    expect(await adapter.estimateFee("deposit", SOLANA_NATIVE_CURRENCY)).toBe(5_000n);
  });
});

describe("createSvmAdapter reading a deposit as soon as it is sent", () => {
  // Slots on demand, a transaction `confirmed` one slot after it lands; slots of 20 ms for the adapter's wait.
  let solana: DevnetSolana;
  let adapter: ReturnType<typeof createSvmAdapter>;
  beforeAll(async () => {
    solana = await startDevnetSolana({ slotMs: 0, confirmedAfterSlots: 1 });
    adapter = createSvmAdapter(
      svmChainConfigSchema.parse({ ...devnetSolanaChain(solana), blockTimeSeconds: SLOT_SECONDS }),
    );
  });
  afterAll(() => solana?.stop());

  /** A SOL deposit of the order, sent (landed `processed`), not yet confirmed. */
  const sendDeposit = async (amount: bigint) => {
    const [step] = await adapter.depositSteps({
      user: solana.accounts[0]!.publicKey.toBase58(),
      currency: { address: SOLANA_NATIVE_CURRENCY, symbol: "SOL" } as never,
      amount,
      orderId,
      requestId: `0x${"34".repeat(32)}`,
      allowance: 0n,
      destinationName: "Devnet A",
    });
    const signature = await sendInstructions(
      new Connection(solana.rpcUrl, "processed"),
      solana.accounts[0]!,
      instructionsOf(step!.items[0]!.data),
    );
    const { value } = await new Connection(solana.rpcUrl).getSignatureStatuses([signature]);
    expect(value[0]?.confirmationStatus).toBe("processed");
    return signature;
  };

  it("waits for a landed signature to be confirmed (the official client indexes it right after sending it)", async () => {
    const signature = await sendDeposit(1_000_000n);
    const read = adapter.readDepositFacts(signature);
    setTimeout(() => solana.advance(1), 5 * SLOT_SECONDS * 1000);
    expect(await read).toMatchObject([{ txHash: signature, orderId, amount: 1_000_000n }]);
  });

  it("gives up on one still unconfirmed after its wait: 404, as for a signature the chain does not have", async () => {
    const signature = await sendDeposit(2_000_000n);
    const started = Date.now();
    await expect(adapter.readDepositFacts(signature)).rejects.toMatchObject({
      errorCode: "TRANSACTION_NOT_FOUND",
      status: 404,
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(SVM_CONFIRMATION_WAIT_SLOTS * SLOT_SECONDS * 1000);
    solana.advance(1);
    expect(await adapter.readDepositFacts(signature)).toHaveLength(1);
  });
});
