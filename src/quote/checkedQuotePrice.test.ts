import { describe, expect, it } from "vitest";
import { fundSponsor, sponsorBalance } from "../../schema/sponsorLedger.js";
import { withTransaction } from "../../schema/withTransaction.js";
import { testQuoteRequest } from "../../test/support/testQuoteRequest.js";
import { useMigratedDatabase } from "../../test/support/useMigratedDatabase.js";
import {
  TEST_FEE,
  TEST_NATIVE_CURRENCY,
  TestLedger,
  createTestAdapter,
  testChain,
  testChainFamily,
} from "../../test/testFamily/testChainFamily.js";
import type { ChainAdapter } from "../chains/adapter.js";
import type { ChainConfig } from "../chains/chainConfig.js";
import { createChainAdapters } from "../chains/chainAdapters.js";
import { type Currency, createChainRegistry } from "../chains/chainRegistry.js";
import { everyRole } from "../chains/everyRole.js";
import { FAMILIES } from "../chains/families.js";
import { createStaticPriceSource } from "../pricing/priceSource.js";
import { checkedQuotePrice } from "./checkedQuotePrice.js";
import type { QuoteEngineDeps } from "./quoteEngineDeps.js";
import { readQuoteMarket } from "./readQuoteMarket.js";
import { createSolverInventory } from "./solverInventory.js";
import type { QuoteRequest } from "./validateQuoteRequest.js";

const origin = testChain(41201);
const destination = testChain(41202);
const recipient = `tst1${"b".repeat(40)}`;
const sponsorAll = { components: ["execution", "swap", "relay", "app"] as const, bps: 10_000n, capMicroUsd: undefined };

/**
 * Over the test family's real adapters (its solver's balance is its ledger's, its fee TEST_FEE), TST at 1 USD with
 * 6 decimals and a 5 bps service fee; sponsors' balances in Postgres.
 */
describe("checkedQuotePrice", () => {
  const database = useMigratedDatabase();

  /** The deps, request and market of a TST bridge; `patch` changes members of the chains' adapters. */
  async function quoting(
    change: Partial<QuoteRequest> = {},
    patch: { origin?: Partial<ChainAdapter>; destination?: Partial<ChainAdapter>; solverHolds?: bigint } = {},
  ) {
    const ledger = new TestLedger();
    ledger.balances.set(destination.solver, patch.solverHolds ?? 1_000_000_000n);
    const chains = [origin, destination];
    const adapters = createChainAdapters(chains, {
      testvm: (chain: ChainConfig) =>
        everyRole({
          ...createTestAdapter(testChain(chain.id), ledger),
          ...(chain.id === origin.id ? patch.origin : patch.destination),
        }),
    });
    const registry = createChainRegistry(chains, [...FAMILIES, testChainFamily]);
    const deps = {
      registry,
      adapters,
      prices: createStaticPriceSource({ TST: "1" }),
      inventory: createSolverInventory(adapters, { ttlMs: 0 }),
      settings: { serviceFeeBps: 5n, defaultSlippageBps: 50n, quoteTtlSeconds: 600 },
      sponsorBalance: (integrator: string) => sponsorBalance(database.pool, integrator),
    } as unknown as QuoteEngineDeps;
    const request: QuoteRequest = {
      ...testQuoteRequest,
      user: `tst1${"a".repeat(40)}`,
      recipient,
      refundTo: `tst1${"a".repeat(40)}`,
      originChain: origin,
      destinationChain: destination,
      currencyIn: registry.currency(origin.id, TEST_NATIVE_CURRENCY)!,
      currencyOut: registry.currency(destination.id, TEST_NATIVE_CURRENCY)!,
      amount: 1_000_000n,
      depositAddress: undefined,
      ...change,
    };
    return { deps, request, market: await readQuoteMarket(deps, request) };
  }
  const check = async (...args: Parameters<typeof quoting>) => {
    const { deps, request, market } = await quoting(...args);
    return checkedQuotePrice(deps, request, market, undefined);
  };

  it("prices a bridge within every bound: the input less the fill's fee and the service fee, less slippage", async () => {
    expect(await check()).toMatchObject({
      amountIn: 1_000_000n,
      relayerGasFee: TEST_FEE,
      relayerServiceFee: 500n,
      amountOut: 1_000_000n - TEST_FEE - 500n,
      // A bridge of the same asset is at a fixed rate: no slippage.
      minimumAmountOut: 1_000_000n - TEST_FEE - 500n,
    });
  });

  it("refuses an input below the smallest deposit the origin carries, and takes one at it", async () => {
    const origin = { minimumDeposit: () => 5_000n };
    await expect(check({ amount: 4_999n }, { origin })).rejects.toMatchObject({
      errorCode: "AMOUNT_TOO_LOW",
      message: "a deposit of 4999 is below the smallest chain 41201 carries (5000); quote a larger amount",
    });
    await expect(check({ amount: 5_000n }, { origin })).resolves.toMatchObject({ amountIn: 5_000n });
  });

  it("refuses an exact output whose priced input falls below the smallest deposit", async () => {
    const refusal = check(
      { tradeType: "EXACT_OUTPUT", amount: 100_000n },
      { origin: { minimumDeposit: () => 1_000_000n } },
    );
    // 100,000 out + the fee of 10, grossed up by 5 bps.
    await expect(refusal).rejects.toMatchObject({
      errorCode: "AMOUNT_TOO_LOW",
      message: "a deposit of 100061 is below the smallest chain 41201 carries (1000000); quote a larger amount",
    });
  });

  it("refuses a same-chain swap worth less than 0.05 USD before fees, and takes one worth that", async () => {
    const swap = async (amount: bigint) => {
      const { deps, request, market } = await quoting({ amount });
      const kind = { ...market.kind, requestType: "Same-chain Swap", isFixedRate: false };
      return checkedQuotePrice(deps, request, { ...market, kind }, undefined);
    };
    await expect(swap(49_999n)).rejects.toMatchObject({
      errorCode: "AMOUNT_TOO_LOW",
      message: "a same-chain swap must be worth at least 0.05 USD; this one is worth 0.049999 USD",
    });
    await expect(swap(50_000n)).resolves.toMatchObject({ amountIn: 50_000n });
  });

  it("refuses an amount the fees eat whole", async () => {
    await expect(check({ amount: TEST_FEE })).rejects.toMatchObject({
      errorCode: "AMOUNT_DOES_NOT_COVER_FEES",
      message: "amount 10 does not cover the fill's fees; quote a larger amount",
    });
  });

  it("refuses a payout below the smallest the destination carries to the recipient, at its slippage floor", async () => {
    const destination = { minimumPayout: () => 999_490n };
    await expect(check({}, { destination })).resolves.toMatchObject({ minimumAmountOut: 999_490n });
    await expect(check({}, { destination: { minimumPayout: () => 999_491n } })).rejects.toMatchObject({
      errorCode: "AMOUNT_TOO_LOW",
      message: `an output of 999490 is below the smallest payment chain 41202 carries to ${recipient} (999491); quote a larger amount`,
    });
  });

  it("refuses calls whose value the output does not cover", async () => {
    const calls = (value: bigint) => [{ to: recipient, value, data: "0x" }];
    // A call is not at a fixed rate: its floor is the output less the default 50 bps of slippage.
    const { deps, request, market } = await quoting({ calls: calls(994_494n) });
    await expect(checkedQuotePrice(deps, request, market, undefined)).rejects.toMatchObject({
      errorCode: "INVALID_INPUT",
      message: "txs[].value: the output (994493 at minimum) does not cover the sum of txs[].value (994494)",
    });
    const covered = await quoting({ calls: calls(994_493n) });
    await expect(checkedQuotePrice(covered.deps, covered.request, covered.market, undefined)).resolves.toBeDefined();
  });

  it("refuses more than the solver holds of the output with its fee, naming what it can fill", async () => {
    const needs = 999_490n + TEST_FEE;
    await expect(check({}, { solverHolds: needs })).resolves.toMatchObject({ amountOut: 999_490n });
    await expect(check({}, { solverHolds: needs - 1n })).rejects.toMatchObject({
      errorCode: "INSUFFICIENT_LIQUIDITY",
      message: "the solver can fill at most 0.999489 TST on chain 41202 right now",
    });
    await expect(check({}, { solverHolds: 5n })).rejects.toMatchObject({
      message: "the solver can fill at most 0 TST on chain 41202 right now",
    });
  });

  it("holds a sponsor to its balance for the fees it pays, and a key that cannot sponsor to nothing", async () => {
    const { deps, request, market } = await quoting({ sponsorship: sponsorAll });
    // The fill's fee and the service fee, 510 micro-units of TST at 1 USD: 510 micro-USD.
    await withTransaction(database.pool, (db) => fundSponsor(db, { integrator: "lean", amountMicroUsd: 509n }));
    await expect(checkedQuotePrice(deps, request, market, "lean")).rejects.toMatchObject({
      errorCode: "SPONSOR_BALANCE_TOO_LOW",
      message:
        "the sponsor lean has 0.000509 USD of sponsorship left and this quote needs 0.00051; an operator funds it (crossfill sponsors fund)",
    });
    await withTransaction(database.pool, (db) => fundSponsor(db, { integrator: "lean", amountMicroUsd: 1n }));
    await expect(checkedQuotePrice(deps, request, market, "lean")).resolves.toMatchObject({
      amountOut: 1_000_000n,
      sponsored: { totalMicroUsd: 510n },
    });
  });

  it("refuses a payout whose new account's rent and fee the solver cannot pay in the native currency", async () => {
    const { deps, request, market } = await quoting();
    // A token payout opening the recipient's account (as an SPL payout does): the rent is paid in the native currency.
    const token: Currency = {
      ...market.fillCurrency,
      address: "tst1token",
      symbol: "TOK",
      metadata: { ...market.fillCurrency.metadata, isNative: false },
    };
    const held = new Map([["tst1token", 10_000_000n]]);
    const renting = {
      ...deps,
      inventory: { available: async (_chainId: number, currency: string) => held.get(currency) ?? 0n },
    };
    const withRent = { ...market, fillCurrency: token, fillRentCost: 2_000n };
    held.set(TEST_NATIVE_CURRENCY, 2_000n + TEST_FEE - 1n);
    await expect(
      checkedQuotePrice(renting, { ...request, currencyOut: token }, withRent, undefined),
    ).rejects.toMatchObject({
      errorCode: "INSUFFICIENT_FUNDS_FOR_RENT",
      message: `the solver holds 0.002009 TST on chain 41202 and opening ${recipient}'s account needs 0.002 of rent and 0.00001 of fee`,
    });
    held.set(TEST_NATIVE_CURRENCY, 2_000n + TEST_FEE);
    await expect(
      checkedQuotePrice(renting, { ...request, currencyOut: token }, withRent, undefined),
    ).resolves.toMatchObject({
      rentFee: 2_000n,
    });
  });

  it("holds a native payout opening an account to the payout, its fee and the rent, all of one balance", async () => {
    // The exchange's perps USDC: the activation fee of a new account comes out of the balance the payout leaves.
    const { deps, request, market } = await quoting({}, { solverHolds: 10_000_000n });
    const withRent = { ...market, fillRentCost: 2_000n };
    const price = await checkedQuotePrice(deps, request, withRent, undefined);
    const needs = price.amountOut + TEST_FEE + 2_000n;
    const holding = async (solverHolds: bigint) => {
      const held = await quoting({}, { solverHolds });
      return checkedQuotePrice(held.deps, held.request, { ...held.market, fillRentCost: 2_000n }, undefined);
    };
    await expect(holding(needs)).resolves.toMatchObject({ amountOut: price.amountOut, rentFee: 2_000n });
    await expect(holding(needs - 1n)).rejects.toMatchObject({
      errorCode: "INSUFFICIENT_FUNDS_FOR_RENT",
      message: expect.stringContaining("beside the payout of"),
    });
  });
});
