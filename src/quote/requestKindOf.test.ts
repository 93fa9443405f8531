import { describe, expect, it } from "vitest";
import type { Currency } from "../chains/chainRegistry.js";
import { requestKindOf } from "./requestKindOf.js";

const currency = (chainId: number, symbol: string, address: string, isNative = false): Currency => ({
  chainId,
  address,
  symbol,
  name: symbol,
  decimals: 18,
  metadata: { logoURI: "", verified: true, isNative },
});
const eth = (chainId: number) => currency(chainId, "ETH", "0x0000000000000000000000000000000000000000", true);
const weth = (chainId: number) => currency(chainId, "WETH", "0x00000000000000000000000000000000000000e1");
const usdc = (chainId: number) => currency(chainId, "USDC", `0x00000000000000000000000000000000000000c${chainId}`);
const kind = (currencyIn: Currency, currencyOut: Currency, calls: unknown[] = []) =>
  requestKindOf({ calls, currencyIn, currencyOut, wrappedNative: weth(currencyIn.chainId) }).requestType;

describe("requestKindOf", () => {
  it("names one-chain requests: Send, Wrap, Unwrap, Same-chain Swap", () => {
    expect(kind(usdc(1), usdc(1))).toBe("Send");
    expect(kind(eth(1), eth(1))).toBe("Send");
    expect(kind(eth(1), weth(1))).toBe("Wrap");
    expect(kind(weth(1), eth(1))).toBe("Unwrap");
    expect(kind(usdc(1), weth(1))).toBe("Same-chain Swap");
    expect(requestKindOf({ calls: [], currencyIn: usdc(1), currencyOut: eth(1), wrappedNative: weth(1) })).toEqual({
      requestType: "Same-chain Swap",
      operation: "swap",
      isFixedRate: false,
      sameChain: true,
    });
  });

  it("wraps only through the chain's marked wrapped native, whatever the symbols say", () => {
    const lookalike = currency(1, "WETH", "0x00000000000000000000000000000000000000f1");
    const noWrapped = { calls: [], wrappedNative: undefined };
    expect(requestKindOf({ ...noWrapped, currencyIn: eth(1), currencyOut: weth(1) }).requestType).toBe(
      "Same-chain Swap",
    );
    expect(kind(eth(1), lookalike)).toBe("Same-chain Swap");
    expect(kind(lookalike, eth(1))).toBe("Same-chain Swap");
  });

  it("names cross-chain requests and calls as before", () => {
    expect(kind(usdc(1), usdc(2))).toBe("Bridge");
    expect(kind(eth(1), weth(2))).toBe("Crosschain Swap");
    expect(kind(eth(1), eth(1), [{}])).toBe("Call");
  });
});
