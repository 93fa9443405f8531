import type { DepositValue } from "../domain/requiredConfirmations.js";
import { describe, expect, it } from "vitest";
import type { ChainConfig } from "../chains/chainConfig.js";
import type { Currency } from "../chains/chainRegistry.js";
import { computeOrderId, computeRequestId } from "../domain/order.js";
import { fakeChainAdapters } from "../../test/support/fakeChainAdapters.js";
import { testPriceQuote } from "../../test/support/testPriceQuote.js";
import { testQuoteRequest } from "../../test/support/testQuoteRequest.js";
import { orderOfQuote } from "./orderOfQuote.js";
import type { QuoteEngineDeps } from "./quoteEngineDeps.js";
import type { QuoteMarket } from "./readQuoteMarket.js";
import type { QuoteRequest } from "./validateQuoteRequest.js";

const NOW = 1_700_000_000_000;
const request: QuoteRequest = {
  ...testQuoteRequest,
  originChain: { id: 8253038, name: "bitcoin", blockTimeSeconds: 600 } as ChainConfig,
  destinationChain: { id: 31338, name: "devnet-b", blockTimeSeconds: 2 } as ChainConfig,
  currencyIn: { address: "BTC", decimals: 8 } as Currency,
};
const price = testPriceQuote;
// Each side's codec keys its addresses in lower case, as EVM's does.
const codec = { key: (address: string) => address.toLowerCase() };
const market = {
  origin: { solverAddress: "BCRT1QSOLVER", address: codec },
  destination: { solverAddress: "0xSOLVER", address: codec },
  // $2 per whole BTC: 500,000 sats are $0.01.
  priceIn: 2n * 10n ** 18n,
} as unknown as QuoteMarket;

function depsConfirming(confirmations: number[]) {
  const asked: DepositValue[] = [];
  const deps = {
    settings: { quoteTtlSeconds: 300 },
    now: () => NOW,
    adapters: fakeChainAdapters(() => ({
      requiredConfirmations: (value: DepositValue) => (asked.push(value), confirmations.shift() ?? 1),
    })),
  } as unknown as QuoteEngineDeps;
  return { deps, asked };
}

describe("orderOfQuote", () => {
  it("builds the order of the priced request, lives the TTL plus one origin block, and names it by its ids", () => {
    const { deps, asked } = depsConfirming([2]);
    const quoted = orderOfQuote(deps, request, market, price);
    expect(quoted.usdIn).toBe(10n ** 16n);
    // The deposit's confirmations are those its value needs: its USD worth, its amount in its currency.
    expect(asked).toEqual([{ usdE18: 10n ** 16n, amount: price.amountIn, currency: request.currencyIn }]);
    expect(quoted.now).toBe(NOW);
    expect(quoted.deadline).toBe(NOW / 1000 + 300 + 600);
    expect(quoted.timing.timeEstimate).toBe(2 * 600 + 2 + 1);
    expect(quoted.orderId).toBe(computeOrderId(quoted.order));
    expect(quoted.requestId).toBe(computeRequestId(quoted.orderId));
    expect(quoted.order).toMatchObject({
      solverChainId: "devnet-b",
      solver: "0xsolver",
      inputs: [{ payment: { chainId: "bitcoin", currency: "btc", amount: "500000" } }],
      output: { deadline: quoted.deadline, payments: [{ minimumAmount: "980", expectedAmount: "990" }] },
      fees: [{ recipient: "bcrt1qsolver", amount: "10" }],
    });
  });

  it("salts each order: the same request quoted twice is two orders", () => {
    const { deps } = depsConfirming([1, 1]);
    const first = orderOfQuote(deps, request, market, price);
    const second = orderOfQuote(deps, request, market, price);
    expect(first.order.salt).not.toBe(second.order.salt);
    expect(first.orderId).not.toBe(second.orderId);
  });
});
