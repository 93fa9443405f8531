import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getFillAttempt } from "../schema/fillAttempts.js";
import { createFillLedger } from "../schema/fillLedger.js";
import type { FillOrder, PreparedTransaction, StuckFillPolicy } from "../src/chains/adapter.js";
import type { AppliedDeposit, DepositFact } from "../src/chains/chainFacts.js";
import type { FillLedger, StoredFillAttempt } from "../src/chains/fillLedger.js";
import { bitcoinAdapterFixture } from "./adapterContract/bitcoinAdapterFixture.js";
import { evmAdapterFixture } from "./adapterContract/evmAdapterFixture.js";
import { hypevmAdapterFixture } from "./adapterContract/hypevmAdapterFixture.js";
import { svmAdapterFixture } from "./adapterContract/svmAdapterFixture.js";
import type { AdapterFixture, FixtureChain } from "./adapterContract/adapterFixture.js";
import { insertTestRequest } from "./support/insertTestRequest.js";
import { useMigratedDatabase } from "./support/useMigratedDatabase.js";
import { testAdapterFixture } from "./testFamily/testAdapterFixture.js";

/**
 * The contract every chain family's adapter keeps, asserted against each family's devnet (docs/ARCHITECTURE.md,
 * "Adapter contract suite"): a new family adds its fixture here and passes the same tests.
 */
const FIXTURES = [
  evmAdapterFixture,
  bitcoinAdapterFixture,
  svmAdapterFixture,
  hypevmAdapterFixture,
  testAdapterFixture,
];

const POLICY: StuckFillPolicy = { bumpAfterMs: 600_000, maxBumps: 3, maxBroadcastFailures: 3 };
const id = () => `0x${randomBytes(32).toString("hex")}`;
/** A run that found the request's fill stored by an earlier run: its own signature is rolled back unused. */
class AlreadyStored extends Error {}

const database = useMigratedDatabase();

describe.each(FIXTURES)("the $name adapter keeps the chain adapter contract", (fixture) => {
  let chain: FixtureChain;
  let ledger: FillLedger;
  beforeAll(async () => {
    chain = await fixture.start();
    ledger = createFillLedger(database.pool);
  });
  afterAll(async () => {
    await chain?.stop();
  });

  const quoter = () => chain.roles.quoter;
  const native = () => quoter().nativeCurrency;
  /** A role's port; a family that does not offer the role skips the test (the suite asks only what it offers). */
  const role = <R extends "deposits" | "solver" | "refunder">(name: R, context: { skip(): void }) => {
    const port = chain.roles[name];
    if (!port) context.skip();
    return port!;
  };
  /** A deposit for a new order, and its one fact. */
  const depositFor = async (context: { skip(): void }) => {
    const order = { orderId: id(), requestId: id() };
    const made = await chain.deposit(order, chain.amount);
    const facts = await role("deposits", context).readDepositFacts(made.txHash);
    expect(facts).toHaveLength(1);
    return { order, made, fact: facts[0]! };
  };
  const applied = (fact: DepositFact): AppliedDeposit => ({
    chainId: fact.chainId,
    txHash: fact.txHash,
    position: fact.position,
    blockHash: fact.blockHash,
    depositor: fact.depositor,
    currency: fact.currency,
    amount: fact.amount,
    blockNumber: fact.blockNumber,
  });

  it("reads its addresses and hashes in one canonical form, and refuses other families' and networks'", async () => {
    const { address, parseTransactionHash } = quoter();
    const [canonical] = chain.addressSpellings;
    for (const spelling of chain.addressSpellings) {
      expect(address.parse(spelling)).toBe(canonical);
      expect(address.key(address.parse(spelling)!)).toBe(address.key(canonical!));
    }
    expect(address.parse(canonical!)).toBe(canonical);
    expect(address.parse(fixture.sampleAddress)).toBe(fixture.sampleAddress);
    expect(parseTransactionHash(fixture.sampleTxHash)).toBe(fixture.sampleTxHash);
    for (const refused of chain.refusedAddresses) expect(address.parse(refused), refused).toBeUndefined();
    const shared = (a: AdapterFixture, b: AdapterFixture) => a.sharesEncodingsWith?.includes(b.name) ?? false;
    for (const other of FIXTURES.filter((c) => c !== fixture && !shared(fixture, c) && !shared(c, fixture))) {
      expect(address.parse(other.sampleAddress), other.name).toBeUndefined();
      expect(parseTransactionHash(other.sampleTxHash), other.name).toBeUndefined();
    }
  });

  it("reads a deposit's facts from its transaction: amount, depositor and order; 404 for an unknown one", async (context) => {
    const deposits = role("deposits", context);
    const { order, made, fact } = await depositFor(context);
    const { address } = quoter();
    expect(fact).toMatchObject({
      chainId: deposits.chain.id,
      txHash: quoter().parseTransactionHash(made.txHash),
      amount: chain.amount,
      currency: native(),
    });
    expect(address.key(fact.depositor)).toBe(address.key(address.parse(made.depositor)!));
    expect(fact.orderId.toLowerCase()).toBe(made.factOrderId.toLowerCase());
    expect([order.orderId, order.requestId]).toContain(made.factOrderId);
    expect(fact.blockNumber).toBeGreaterThan(0n);
    await expect(deposits.readDepositFacts(fixture.sampleTxHash)).rejects.toMatchObject({
      errorCode: "TRANSACTION_NOT_FOUND",
      status: 404,
    });
  });

  it("checks a deposit: confirming until deep enough, then final", async (context) => {
    const deposits = role("deposits", context);
    const { fact } = await depositFor(context);
    expect(await deposits.checkDeposit(applied(fact), 1)).toEqual({ state: "final" });
    expect(await deposits.checkDeposit(applied(fact), 3)).toEqual({ state: "confirming", missingBlocks: 2 });
    await chain.mine(2);
    expect(await deposits.checkDeposit(applied(fact), 3)).toEqual({ state: "final" });
  });

  it("checks a deposit a reorg took out of the chain: reorged (DEPOSIT_REORGED)", async (context) => {
    if (!chain.reorgOut) return context.skip(chain.unsupported?.reorgs);
    const deposits = role("deposits", context);
    const { fact } = await depositFor(context);
    await chain.reorgOut(fact);
    const check = await deposits.checkDeposit(applied(fact), 1);
    expect(check.state).toBe("reorged");
    if (check.state === "reorged") expect(check.failReason ?? "DEPOSIT_REORGED").toBe("DEPOSIT_REORGED");
    await expect(deposits.readDepositFacts(fact.txHash)).rejects.toMatchObject({
      errorCode: "TRANSACTION_NOT_FOUND",
    });
  });

  it("checks a deposit a reorg mined again in another block: moved there, where its facts now are", async (context) => {
    if (!chain.reorgMoving) return context.skip(chain.unsupported?.reorgs);
    const deposits = role("deposits", context);
    const { fact } = await depositFor(context);
    await chain.reorgMoving(fact);
    const check = await deposits.checkDeposit(applied(fact), 1);
    const [there] = await deposits.readDepositFacts(fact.txHash);
    expect(there!.blockHash).not.toBe(fact.blockHash);
    expect(check).toEqual({
      state: "moved",
      to: {
        position: there!.position,
        blockNumber: there!.blockNumber,
        blockHash: there!.blockHash,
        timestamp: there!.timestamp,
      },
    });
    const moved = { ...applied(fact), blockNumber: there!.blockNumber, blockHash: there!.blockHash };
    expect(await deposits.checkDeposit(moved, 1)).toEqual({ state: "final" });
  });

  describe("as a destination", () => {
    /**
     * One run of the fill job's signing phase: prepare, then sign and store in one ledger transaction. A run that
     * finds a fill stored for the request rolls its own signature back (with the nonce or outputs it locked) and
     * returns the stored one, which is all that is ever broadcast.
     */
    const solver = () => chain.roles.solver!;
    const signAndStore = async (order: FillOrder): Promise<StoredFillAttempt> => {
      const prepared = await solver().prepareFill(order);
      if (!("transaction" in prepared)) throw new Error(JSON.stringify(prepared.refusal.failure));
      return store(order, prepared.transaction);
    };
    const store = async (order: FillOrder, transaction: PreparedTransaction): Promise<StoredFillAttempt> => {
      await ledger
        .transaction(async (ledgerTransaction) => {
          const signed = await solver().signTransaction(ledgerTransaction, transaction);
          const stored = await ledgerTransaction.storeFill({
            requestId: order.requestId,
            chainId: solver().chain.id,
            solver: solver().solverAddress,
            ...signed,
            currency: order.currency,
            amount: order.amount,
            recipient: order.recipient,
          });
          if (!stored) throw new AlreadyStored();
        })
        .catch((error: unknown) => {
          if (!(error instanceof AlreadyStored)) throw error;
        });
      return (await getFillAttempt(database.pool, order.requestId))!;
    };

    it("pays a fill once, however often prepare → sign → store → broadcast → follow runs", async (context) => {
      if (chain.capabilities.destinationRefusal !== undefined) context.skip();
      const adapter = role("solver", context);
      await adapter.prepareSolver?.(ledger);
      const recipient = chain.newAddress();
      const request = await insertTestRequest(database.pool, {
        destinationChainId: adapter.chain.id,
        destinationCurrency: native(),
        recipient,
      });
      const order: FillOrder = {
        requestId: request.id,
        orderId: request.orderId,
        currency: native(),
        amount: chain.amount,
        recipient,
        calls: [],
        currencySymbol: adapter.chain.nativeCurrency.symbol,
        // What opening the new recipient's account costs, as its quote charges it.
        quotedRent: await quoter().payoutRent?.(native(), recipient),
      };
      const solverBefore = await chain.balance(adapter.solverAddress);

      // The first run stops once the fill is stored (a worker lost before its broadcast).
      const first = await signAndStore(order);
      // The second signs anew, stores nothing, and sends and follows the stored fill.
      const second = await signAndStore(order);
      expect(second.txHash).toBe(first.txHash);
      await adapter.broadcast(second);
      await adapter.broadcast(second);
      await chain.mine(1);
      const outcome = await adapter.followFill(second, { ledger, policy: POLICY });
      // Mined under the stored hash, or under the chain's own name for it where the chain names it only once it
      // commits it (the exchange): a hash of the chain either way.
      expect(outcome).toMatchObject({ state: "mined" });
      const minedHash = outcome.state === "mined" ? outcome.txHash : "";
      if (minedHash !== first.txHash) expect(chain.namesTransactionsOnCommit).toBe(true);
      expect(quoter().parseTransactionHash(minedHash)).toBeDefined();
      // A third, after it is mined: the fill is refused (EVM: the Receiver has the request filled) or the ledger
      // keeps the first; the stored bytes sent again change nothing.
      const again = await adapter.prepareFill(order);
      if ("transaction" in again) expect((await store(order, again.transaction)).txHash).toBe(first.txHash);
      else expect(again.refusal.failure.failReason).toBe("ORDER_ALREADY_FILLED");
      await adapter.broadcast(second);
      await chain.mine(1);
      expect(await adapter.followFill(second, { ledger, policy: POLICY })).toEqual(outcome);

      expect(await chain.balance(recipient)).toBe(chain.amount);
      const fee = outcome.state === "mined" ? outcome.fee : 0n;
      expect(solverBefore - (await chain.balance(adapter.solverAddress))).toBe(chain.amount + fee);
    });
  });

  describe("as an origin", () => {
    const signRefund = (transaction: PreparedTransaction) =>
      ledger.transaction((ledgerTransaction) => chain.roles.refunder!.signTransaction(ledgerTransaction, transaction));

    it("refunds a deposit to the refundee once, however often the signed refund is sent", async (context) => {
      if (chain.unsupported?.refunds) return context.skip(chain.unsupported.refunds);
      const adapter = role("refunder", context);
      const { order, fact } = await depositFor(context);
      // Final first, as a refund of pooled funds waits for (one spending the deposit does not need to).
      await chain.mine(1);
      const refundee = chain.newAddress();
      // The deposit less what the refund costs whoever pays it out to this refundee, as the refund job charges it.
      const rent = (await quoter().payoutRent?.(native(), refundee)) ?? 0n;
      const amount = chain.amount - (await quoter().estimateFee("refund", native())) - rent;
      expect(amount).toBeGreaterThan(0n);
      const refund = {
        orderId: order.orderId,
        currency: native(),
        recipient: refundee,
        amount,
        deposit: { txHash: fact.txHash, position: fact.position },
        chargedRent: rent,
      };
      const prepared = await adapter.prepareRefund(refund);
      if (!("transaction" in prepared)) throw new Error(prepared.refusal);
      const signed = await signRefund(prepared.transaction);
      await adapter.broadcast(signed);
      await adapter.broadcast(signed);
      await chain.mine(1);
      await adapter.broadcast(signed);
      await chain.mine(1);
      expect(await chain.balance(refundee)).toBe(amount);
      // A refund that spends the deposit itself cannot be made again; one of pooled funds is kept from it by the
      // refund's stored state (jobs/createRefundProcessor.ts), not by the chain.
      if (adapter.refundSpendsDeposit) expect(await adapter.prepareRefund(refund)).toHaveProperty("refusal");
    });
  });
});
