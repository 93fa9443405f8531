import { type AddressInfo } from "node:net";
import { createServer } from "node:http";
import { Psbt, Transaction } from "bitcoinjs-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ecPair } from "../../../devnet/bitcoin/ecPair.js";
import { devnetBitcoinChain } from "../../../devnet/bitcoin/devnetBitcoinChain.js";
import {
  type DevnetBitcoin,
  devnetBitcoinSolverOutputSats,
  devnetBitcoinSolverOutputs,
  startDevnetBitcoin,
} from "../../../devnet/bitcoin/startDevnetBitcoin.js";
import { MEMPOOL_BLOCK_HASH } from "../chainFacts.js";
import { insertFillAttempt } from "../../../schema/fillAttempts.js";
import { fillLedgerIn } from "../../../schema/fillLedger.js";
import { transitionRequest } from "../../../schema/transitionRequest.js";
import { withTransaction } from "../../../schema/withTransaction.js";
import { insertTestRequest } from "../../../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../../../test/support/useMigratedDatabase.js";
import { REGTEST_ADDRESS } from "../../../test/support/testBitcoinChain.js";
import type { ChainAdapter, FillOrder, PreparedTransaction } from "../adapter.js";
import { bitcoinChainConfigSchema } from "../chainConfig.js";
import { createChainRegistry } from "../chainRegistry.js";
import { BITCOIN_NATIVE_CURRENCY } from "./bitcoinFamily.js";
import { createBitcoinAdapter } from "./createBitcoinAdapter.js";
import { computeRequestId } from "../../domain/order.js";

const ORDER_ID: `0x${string}` = `0x${"5a".repeat(32)}`;

describe("createBitcoinAdapter", () => {
  let btc: DevnetBitcoin;
  let adapter: ChainAdapter;
  beforeAll(async () => {
    btc = await startDevnetBitcoin({ blockTimeMs: 0 });
    const chain = bitcoinChainConfigSchema.parse(devnetBitcoinChain(btc));
    adapter = createBitcoinAdapter(chain);
  });
  afterAll(async () => {
    await btc?.stop();
  });

  const steps = (user: string, amount: bigint) =>
    adapter.depositSteps({
      user,
      currency: createChainRegistry([adapter.chain]).currency(adapter.chain.id, BITCOIN_NATIVE_CURRENCY)!,
      amount,
      orderId: ORDER_ID,
      requestId: `0x${"01".repeat(32)}`,
      allowance: 0n,
      destinationName: "anvil",
    });
  /** What a wallet does with the step: sign every input, finalize, extract, POST /tx. */
  const signAndSend = async (psbtHex: string, wif: string) => {
    const psbt = Psbt.fromHex(psbtHex, { network: btc.network });
    psbt.signAllInputs(ecPair.fromWIF(wif, btc.network));
    psbt.finalizeAllInputs();
    const response = await fetch(`${btc.esploraUrl}/tx`, {
      method: "POST",
      body: psbt.extractTransaction().toHex(),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    return { txid: await response.text(), fee: psbt.getFee() };
  };

  it("quotes a PSBT the devnet accepts once signed, and reads the deposit back once mined", async () => {
    const payer = btc.accounts[0]!;
    const before = await adapter.balanceOf(payer.address, BITCOIN_NATIVE_CURRENCY);
    expect(before).toBe(1_000_000_000n);
    const [step] = await steps(payer.address, 25_000_000n);
    expect(step).toMatchObject({ id: "deposit", kind: "transaction", depositAddress: "" });
    const { txid, fee } = await signAndSend(step!.items[0]!.data.psbt as string, payer.wif);
    // Mempool spent counts at once: the change is not spendable until it confirms.
    expect(await adapter.balanceOf(payer.address, BITCOIN_NATIVE_CURRENCY)).toBe(0n);
    await expect(adapter.readDepositFacts(txid)).rejects.toMatchObject({
      errorCode: "TRANSACTION_NOT_FOUND",
      status: 404,
    });
    const inMempool = {
      chainId: adapter.chain.id,
      txHash: txid,
      position: 0,
      blockHash: MEMPOOL_BLOCK_HASH,
      blockNumber: 0n,
    };
    const deposit = { ...inMempool, depositor: payer.address, currency: BITCOIN_NATIVE_CURRENCY, amount: 25_000_000n };
    expect(await adapter.checkDeposit(deposit, 1)).toEqual({ state: "confirming", missingBlocks: 1 });

    const [blockHash] = btc.mine(1);
    expect(await adapter.balanceOf(payer.address, BITCOIN_NATIVE_CURRENCY)).toBe(before - 25_000_000n - fee);
    const facts = await adapter.readDepositFacts(txid);
    expect(facts).toEqual([
      expect.objectContaining({
        txHash: txid,
        position: 0,
        // The id the memo names: the request's (reads map it to the order, schema/unappliedFacts depositOrderSql).
        orderId: `0x${"01".repeat(32)}`,
        depositor: payer.address,
        amount: 25_000_000n,
        txFee: fee,
        blockNumber: 1n,
        blockHash,
      }),
    ]);
    expect(await adapter.checkDeposit(deposit, 1)).toEqual({ state: "final" });
    expect(await adapter.checkDeposit({ ...deposit, blockHash: blockHash!, blockNumber: 1n }, 2)).toEqual({
      state: "confirming",
      missingBlocks: 1,
    });
  });

  it("refuses what cannot be deposited: too little balance (INSUFFICIENT_FUNDS), no outputs at all", async () => {
    const payer = btc.accounts[1]!;
    await expect(steps(payer.address, 1_000_000_000n)).rejects.toMatchObject({ errorCode: "INSUFFICIENT_FUNDS" });
    await expect(steps(REGTEST_ADDRESS, 1_000n)).rejects.toMatchObject({ errorCode: "INSUFFICIENT_FUNDS" });
    expect(adapter.minimumDeposit(BITCOIN_NATIVE_CURRENCY)).toBe(294n);
  });

  it("offers deposit addresses only with an account key: the address to pay instead of a PSBT, sweeps with the private key", async () => {
    const chain = adapter.chain as Parameters<typeof createBitcoinAdapter>[0];
    const { xpub, xprv } = btc.depositAddressKey;
    expect(adapter.depositAddressFor).toBeUndefined();
    expect(adapter.signSweep).toBeUndefined();
    const gateway = createBitcoinAdapter(chain, { depositAddressKey: xpub });
    const worker = createBitcoinAdapter(chain, { depositAddressKey: xprv });
    expect(gateway.signSweep).toBeUndefined();
    expect(worker.signSweep).toBeDefined();
    const reference = { orderId: ORDER_ID, requestId: `0x${"02".repeat(32)}`, depositor: "", nextIndex: async () => 5 };
    expect(await gateway.depositAddressFor!(reference)).toEqual(await worker.depositAddressFor!(reference));
    const { address: depositAddress, key } = await gateway.depositAddressFor!(reference);
    expect(key).toBe("5");
    const currency = createChainRegistry([chain]).currency(chain.id, BITCOIN_NATIVE_CURRENCY)!;
    const input = {
      user: btc.accounts[3]!.address,
      currency,
      amount: 40_000n,
      orderId: ORDER_ID,
      requestId: `0x${"02".repeat(32)}`,
      allowance: 0n,
      destinationName: "anvil",
      depositAddress,
    };
    const [step] = await gateway.depositSteps(input);
    expect(step).toMatchObject({ id: "deposit", kind: "transaction", depositAddress });
    expect(step!.items[0]!.data).toEqual({ to: depositAddress, value: "40000", chainId: chain.id });
    await expect(gateway.depositSteps({ ...input, user: REGTEST_ADDRESS })).rejects.toMatchObject({
      errorCode: "INSUFFICIENT_FUNDS",
    });
  });

  it("pays no fee above the chain's cap, whatever rate its Esplora answers", async () => {
    // An Esplora asking 100,000 sat/vB (a fault, or whoever answers on its path).
    const server = createServer((request, response) => {
      response.setHeader("content-type", "application/json");
      response.end(request.url === "/fee-estimates" ? JSON.stringify({ "1": 200_000, "2": 100_000 }) : "{}");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const esploraUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const chain = bitcoinChainConfigSchema.parse({ ...devnetBitcoinChain(btc), esploraUrl });
      // 218 vB for a payout: at the default cap of 500 sat/vB, or the chain's own.
      expect(await createBitcoinAdapter(chain).estimateFee("fill", BITCOIN_NATIVE_CURRENCY, 0)).toBe(218n * 500n);
      const capped = createBitcoinAdapter({ ...chain, maxFeeRateSatVb: 20 });
      expect(await capped.estimateFee("fill", BITCOIN_NATIVE_CURRENCY, 0)).toBe(218n * 20n);
      expect(await capped.estimateFee("refund", BITCOIN_NATIVE_CURRENCY, 0)).toBe(199n * 20n);
      // BITCOIN_MAX_FEE_RATE_SAT_VB caps a chain that sets no cap of its own; a chain's own cap wins over it.
      const configured = createBitcoinAdapter(chain, { maxFeeRateSatVb: 30 });
      expect(await configured.estimateFee("fill", BITCOIN_NATIVE_CURRENCY, 0)).toBe(218n * 30n);
      const both = createBitcoinAdapter({ ...chain, maxFeeRateSatVb: 20 }, { maxFeeRateSatVb: 30 });
      expect(await both.estimateFee("fill", BITCOIN_NATIVE_CURRENCY, 0)).toBe(218n * 20n);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("takes a confirmation at least, and two from the spec's per-currency amount (0.1 BTC), whatever its USD worth", () => {
    const btc = { symbol: "BTC", decimals: 8 };
    const usd = (dollars: bigint) => dollars * 10n ** 18n;
    expect(adapter.requiredConfirmations({ usdE18: 0n, amount: 0n, currency: btc })).toBe(1);
    expect(adapter.requiredConfirmations({ usdE18: usd(1_000_000n), amount: 9_999_999n, currency: btc })).toBe(1);
    expect(adapter.requiredConfirmations({ usdE18: usd(1n), amount: 10_000_000n, currency: btc })).toBe(2);
    expect(adapter.requiredConfirmations({ usdE18: undefined, amount: 10_000_000n, currency: btc })).toBe(2);
  });
});

describe("createBitcoinAdapter, paying out (EVM → BTC)", () => {
  const database = useMigratedDatabase();
  let btc: DevnetBitcoin;
  let adapter: ChainAdapter;
  beforeAll(async () => {
    btc = await startDevnetBitcoin({ blockTimeMs: 0 });
    adapter = createBitcoinAdapter(bitcoinChainConfigSchema.parse(devnetBitcoinChain(btc)), {
      solverWif: btc.solver.wif,
    });
  });
  afterAll(async () => {
    await btc?.stop();
  });

  const order = (recipient: string, amount: bigint): FillOrder => ({
    requestId: `0x${"02".repeat(32)}`,
    orderId: ORDER_ID,
    currency: BITCOIN_NATIVE_CURRENCY,
    amount,
    recipient,
    calls: [],
    currencySymbol: "BTC",
  });
  const prepared = async (amount: bigint) => {
    const result = await adapter.prepareFill(order(btc.accounts[0]!.address, amount));
    if (!("transaction" in result)) throw new Error(JSON.stringify(result.refusal.failure));
    return result.transaction;
  };
  /** Signs a payout as the fill job does: under a request's transaction, stored before it commits. */
  const signAndStore = async (transaction: PreparedTransaction) => {
    const request = await insertTestRequest(database.pool);
    return withTransaction(database.pool, async (db) => {
      await transitionRequest(db, { requestId: request.id, to: "pending" });
      const signed = await adapter.signTransaction(fillLedgerIn(db), transaction);
      await insertFillAttempt(db, {
        requestId: request.id,
        chainId: adapter.chain.id,
        solver: adapter.solverAddress,
        ...signed,
        currency: BITCOIN_NATIVE_CURRENCY,
        amount: 1n,
        recipient: btc.accounts[0]!.address,
      });
      return signed;
    });
  };

  it("pays from the chain's solver wallet; refuses dust, the solver as recipient and order signatures", async () => {
    expect(adapter.solverAddress).toBe(btc.solver.address);
    const recipient = btc.accounts[0]!.address;
    expect(adapter.minimumPayout(BITCOIN_NATIVE_CURRENCY, recipient)).toBe(294n);
    expect(await adapter.prepareFill(order(recipient, 293n))).toMatchObject({
      refusal: { failure: { failReason: "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL" } },
    });
    expect(adapter.recipientRefusal(btc.solver.address)).toMatchObject({ errorCode: "INVALID_RECIPIENT" });
    // No member that only refuses: a payout carries no order signature, and the solver has nothing to set up.
    expect(adapter.signOrder).toBeUndefined();
    expect(adapter.prepareSolver).toBeUndefined();
    expect(() =>
      createBitcoinAdapter(bitcoinChainConfigSchema.parse(devnetBitcoinChain(btc)), { solverWif: btc.depository.wif }),
    ).toThrow(/solver key's address/);
  });

  it("signs a payout from outputs no stored fill spends, and a further one once the change confirms", async () => {
    // 95 BTC takes all ten of the solver's 10 BTC genesis outputs.
    const first = await signAndStore(await prepared(9_500_000_000n));
    expect(first.nonce).toBeNull();
    expect(Transaction.fromHex(first.rawTx).ins).toHaveLength(devnetBitcoinSolverOutputs);
    // Every output is taken by the stored (not yet broadcast) payout: the next waits, retryable.
    await expect(signAndStore(await prepared(2_000_000n))).rejects.toMatchObject({
      errorCode: "SERVICE_UNAVAILABLE",
      retryable: true,
    });
    await adapter.broadcast(first);
    const fee = (await (await fetch(`${btc.esploraUrl}/tx/${first.txHash}`)).json()).fee as number;
    // Its own balance counts the change waiting in the mempool.
    expect(await adapter.balanceOf(adapter.solverAddress, BITCOIN_NATIVE_CURRENCY)).toBe(
      BigInt(devnetBitcoinSolverOutputs) * devnetBitcoinSolverOutputSats - 9_500_000_000n - BigInt(fee),
    );
    // The manual index reads the payout as the poller does, once it is in a block: the order's fill, no deposit.
    await expect(adapter.readSettlementFacts!(first.txHash)).rejects.toMatchObject({
      errorCode: "TRANSACTION_NOT_FOUND",
    });
    const [blockHash] = btc.mine(1);
    expect(await adapter.readSettlementFacts!(first.txHash)).toEqual({
      fills: [
        expect.objectContaining({
          chainId: adapter.chain.id,
          txHash: first.txHash,
          position: 0,
          requestId: computeRequestId(ORDER_ID),
          recipient: btc.accounts[0]!.address,
          amount: 9_500_000_000n,
          txFee: BigInt(fee),
          blockHash,
        }),
      ],
      withdrawals: [],
    });
    expect(await adapter.readDepositFacts(first.txHash)).toEqual([]);
    const second = await signAndStore(await prepared(2_000_000n));
    const spent = Transaction.fromHex(second.rawTx).ins.map((input) =>
      Buffer.from(input.hash).reverse().toString("hex"),
    );
    expect(spent).toEqual([first.txHash]);
  });
});
