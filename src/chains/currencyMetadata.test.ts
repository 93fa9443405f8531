import { describe, expect, it } from "vitest";
import { currencyMetadata } from "./currencyMetadata.js";

describe("currencyMetadata", () => {
  it("takes the entry's logo and verification, an empty logo and verified when it gives none", () => {
    expect(currencyMetadata({}, true)).toEqual({ logoURI: "", verified: true, isNative: true });
    expect(currencyMetadata({ logoURI: "https://example.org/usdc.svg", verified: false }, false)).toEqual({
      logoURI: "https://example.org/usdc.svg",
      verified: false,
      isNative: false,
    });
  });
});
