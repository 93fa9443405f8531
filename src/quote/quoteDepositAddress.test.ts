import { fakeChainAdapters } from "../../test/support/fakeChainAdapters.js";
import { describe, expect, it } from "vitest";
import type { ChainAdapter, DepositAddressReference } from "../chains/adapter.js";
import { testQuoteRequest } from "../../test/support/testQuoteRequest.js";
import { depositAddressTerms } from "./depositAddressTerms.js";
import { quoteDepositAddress } from "./quoteDepositAddress.js";
import type { QuoteEngineDeps } from "./quoteEngineDeps.js";
import type { QuoteRequest } from "./validateQuoteRequest.js";

const request: QuoteRequest = { ...testQuoteRequest, depositAddress: { type: "strict" } };
const quote = { now: new Date(), orderId: "0xorder", requestId: "0xrequest" };

/** A family that derives its address from a fresh index, and a store that hands out indexes 7, 8, … */
function setup(regenerable?: { requestId: string; address: string; key: string }) {
  const asked: DepositAddressReference[] = [];
  const looked: unknown[] = [];
  let index = 7;
  const origin = {
    depositAddressFor: async (reference: DepositAddressReference) => {
      asked.push(reference);
      const taken = await reference.nextIndex();
      return { address: `bcrt1qaddress${taken}`, key: String(taken) };
    },
  } as unknown as ChainAdapter;
  const deps: Pick<QuoteEngineDeps, "adapters" | "depositAddresses"> = {
    adapters: fakeChainAdapters(() => origin),
    depositAddresses: {
      next: async () => index++,
      regenerable: async (route) => {
        looked.push(route);
        return regenerable;
      },
    },
  };
  return { deps, asked, looked };
}

describe("quoteDepositAddress", () => {
  it("asks the origin's family for a fresh address of the order and depositor, and keeps its key", async () => {
    const { deps, asked } = setup();
    expect(await quoteDepositAddress(request, deps, { ...quote, apiKeyId: "key-1" })).toEqual({
      chainId: 8253038,
      address: "bcrt1qaddress7",
      key: "7",
      type: "strict",
      terms: depositAddressTerms(request, "key-1"),
    });
    expect(asked).toMatchObject([{ orderId: "0xorder", requestId: "0xrequest", depositor: "bcrt1quser" }]);
  });

  it("regenerates the address of an expired request of the same key and terms, spending no new one", async () => {
    const { deps, asked, looked } = setup({ requestId: "0xold", address: "bcrt1qold", key: "3" });
    const terms = depositAddressTerms(request, "key-1");
    expect(await quoteDepositAddress(request, deps, { ...quote, apiKeyId: "key-1" })).toEqual({
      chainId: 8253038,
      address: "bcrt1qold",
      key: "3",
      type: "strict",
      supersedes: "0xold",
      terms,
    });
    expect(looked).toEqual([{ chainId: 8253038, terms, now: quote.now }]);
    expect(asked).toEqual([]);
  });

  it("gives a keyless quote a fresh address without looking for one to regenerate, and none without the option", async () => {
    const { deps, looked } = setup({ requestId: "0xold", address: "bcrt1qold", key: "3" });
    expect(await quoteDepositAddress(request, deps, { ...quote, apiKeyId: undefined })).toEqual({
      chainId: 8253038,
      address: "bcrt1qaddress7",
      key: "7",
      type: "strict",
    });
    expect(looked).toEqual([]);
    expect(
      await quoteDepositAddress({ ...request, depositAddress: undefined }, deps, { ...quote, apiKeyId: "key-1" }),
    ).toBeUndefined();
    expect(
      await quoteDepositAddress(request, { ...deps, depositAddresses: undefined }, { ...quote, apiKeyId: "key-1" }),
    ).toBeUndefined();
  });
});
