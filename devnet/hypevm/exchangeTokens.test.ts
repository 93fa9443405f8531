import { describe, expect, it } from "vitest";
import { devnetExchangeTokens, tokenOfSpec, tokenSpec } from "./exchangeTokens.js";

describe("tokenOfSpec", () => {
  const [usdc, hype] = devnetExchangeTokens as [(typeof devnetExchangeTokens)[0], (typeof devnetExchangeTokens)[0]];

  it("finds a token by its NAME:tokenId form", () => {
    expect(usdc.tokenId).toMatch(/^0x[0-9a-f]{32}$/);
    expect(tokenOfSpec(devnetExchangeTokens, tokenSpec(usdc))).toBe(usdc);
    expect(tokenOfSpec(devnetExchangeTokens, `HYPE:${hype.tokenId.toUpperCase().replace("0X", "0x")}`)).toBe(hype);
  });

  it("refuses a name with another token's id, a bare name or extra parts", () => {
    expect(tokenOfSpec(devnetExchangeTokens, `USDC:${hype.tokenId}`)).toBeUndefined();
    expect(tokenOfSpec(devnetExchangeTokens, "USDC")).toBeUndefined();
    expect(tokenOfSpec(devnetExchangeTokens, `${tokenSpec(usdc)}:x`)).toBeUndefined();
  });
});
