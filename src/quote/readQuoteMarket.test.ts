import { type Address, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { familyAdapters } from "../../apps/families/familyAdapters.js";
import { type DevnetChains, startDevnetChains } from "../../devnet/startDevnetChains.js";
import { fakeChainAdapters } from "../../test/support/fakeChainAdapters.js";
import { testQuoteRequest } from "../../test/support/testQuoteRequest.js";
import type { QuotePort } from "../chains/adapter.js";
import type { ChainAdapters } from "../chains/chainAdapters.js";
import { type ChainRegistry, createChainRegistry } from "../chains/chainRegistry.js";
import { createStaticPriceSource } from "../pricing/priceSource.js";
import type { QuoteEngineDeps } from "./quoteEngineDeps.js";
import { readQuoteMarket } from "./readQuoteMarket.js";
import type { QuoteRequest } from "./validateQuoteRequest.js";

const E18 = 10n ** 18n;

/** Against two devnet anvils with the devnet's tokens, through the EVM family's own quote ports. */
describe("readQuoteMarket", () => {
  let devnet: DevnetChains;
  let registry: ChainRegistry;
  let adapters: ChainAdapters;
  let user: Address;
  beforeAll(async () => {
    devnet = await startDevnetChains({ chainIds: [31394, 31395], blockTime: 0 });
    registry = createChainRegistry(devnet.chains);
    adapters = familyAdapters(devnet.chains, { evm: { solver: devnet.solver } });
    user = devnet.accounts[0]!.address;
  });
  afterAll(() => devnet?.stop());

  const depsOf = (overrides: Partial<QuoteEngineDeps> = {}) =>
    ({
      registry,
      adapters,
      prices: createStaticPriceSource({ ETH: "3000", USDC: "1", WETH: "3000" }),
      ...overrides,
    }) as QuoteEngineDeps;
  const currency = (chainId: number, symbol: string) => {
    const address =
      symbol === "ETH"
        ? zeroAddress
        : devnet.chains.find((chain) => chain.id === chainId)!.currencies.find((c) => c.symbol === symbol)!.address;
    return registry.currency(chainId, address)!;
  };
  const requestOf = (from: [number, string], to: [number, string], calls = 0): QuoteRequest => ({
    ...testQuoteRequest,
    user,
    recipient: devnet.accounts[1]!.address,
    refundTo: user,
    originChain: registry.chain(from[0])!,
    destinationChain: registry.chain(to[0])!,
    currencyIn: currency(...from),
    currencyOut: currency(...to),
    amount: 10n ** 15n,
    calls: Array.from({ length: calls }, () => ({ to: devnet.accounts[2]!.address, value: 0n, data: "0x" })),
    depositAddress: undefined,
  });

  it("reads a cross-chain call's prices, both chains' fees and the user's account, the solver paying the output", async () => {
    const request = requestOf([31394, "ETH"], [31395, "USDC"], 2);
    const market = await readQuoteMarket(depsOf(), request);
    const origin = adapters.quoter(31394);
    const destination = adapters.quoter(31395);
    expect(market).toMatchObject({
      originNative: { symbol: "ETH", chainId: 31394 },
      destinationNative: { symbol: "ETH", chainId: 31395 },
      kind: { requestType: "Call", sameChain: false },
      conversion: undefined,
      fillCurrency: request.currencyOut,
      priceIn: 3000n * E18,
      priceOut: 1n * E18,
      priceDestinationNative: 3000n * E18,
      priceOriginNative: 3000n * E18,
      observedIn: { priceE18: 3000n * E18 },
      observedOut: { priceE18: 1n * E18 },
      fillRentCost: 0n,
      // Native deposits need no allowance.
      depositAccount: { balance: await origin.balanceOf(user, zeroAddress), allowance: 0n },
    });
    // The fill's fee is its currency's and its calls'; the origin's is a deposit's.
    expect(market.fillGasCost).toBe(await destination.estimateFee("fill", request.currencyOut.address, 2, undefined));
    expect(market.fillGasCost).toBeGreaterThan(await destination.estimateFee("fill", request.currencyOut.address, 0));
    expect(market.originGasFee).toBe(await origin.estimateFee("deposit", zeroAddress));
    expect(market.originGasFee).toBeGreaterThan(0n);
  });

  it("reads a token deposit's balance and allowance on the user's account", async () => {
    const request = requestOf([31394, "USDC"], [31395, "USDC"]);
    const market = await readQuoteMarket(depsOf(), request);
    expect(market.kind.requestType).toBe("Bridge");
    expect(market.depositAccount).toEqual(
      await adapters.quoter(31394).readDepositAccount(user, request.currencyIn.address),
    );
    expect(market.depositAccount.balance).toBeGreaterThan(0n);
  });

  it("prices a wrap as the conversion of its input: the solver spends the ether it wraps", async () => {
    const request = requestOf([31394, "ETH"], [31394, "WETH"]);
    const market = await readQuoteMarket(depsOf(), request);
    expect(market).toMatchObject({
      kind: { requestType: "Wrap" },
      conversion: "wrap",
      fillCurrency: request.currencyIn,
    });
    expect(market.fillGasCost).toBe(await adapters.quoter(31394).estimateFee("fill", zeroAddress, 0, "wrap"));
  });

  it("asks a destination that charges rent for opening the recipient's account what the fill's currency costs there", async () => {
    const asked: string[][] = [];
    const real = adapters.quoter(31395);
    const renting: QuotePort = Object.assign(Object.create(real) as QuotePort, {
      payoutRent: async (currency: string, recipient: string) => {
        asked.push([currency, recipient]);
        return 2_039_280n;
      },
    });
    const request = requestOf([31394, "ETH"], [31395, "USDC"]);
    const deps = depsOf({ adapters: fakeChainAdapters((id) => (id === 31395 ? renting : adapters.quoter(id))) });
    expect((await readQuoteMarket(deps, request)).fillRentCost).toBe(2_039_280n);
    expect(asked).toEqual([[request.currencyOut.address, request.recipient]]);
  });

  it("refuses a currency no source prices (400) and reports a failing source as retryable (503)", async () => {
    const request = requestOf([31394, "ETH"], [31395, "USDC"]);
    const unpriced = depsOf({ prices: createStaticPriceSource({ ETH: "3000" }) });
    await expect(readQuoteMarket(unpriced, request)).rejects.toMatchObject({
      errorCode: "UNSUPPORTED_CURRENCY",
      status: 400,
    });
    // A source whose transport fails outright (not one of our errors).
    const unreachable = async (): Promise<never> => {
      throw new Error("connect ECONNREFUSED 10.0.0.1:443");
    };
    const failing = depsOf({ prices: { pricesOf: unreachable, usdPriceE18: unreachable } });
    const refusal = readQuoteMarket(failing, request);
    await expect(refusal).rejects.toMatchObject({ errorCode: "PRICE_FETCH_FAILED", status: 503 });
    // The source's own error (hosts, keys) stays inside.
    await expect(refusal).rejects.not.toMatchObject({ message: expect.stringContaining("10.0.0.1") });
  });
});
