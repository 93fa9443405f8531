import { describe, expect, it } from "vitest";
import { hypevmFamily, parseCurrencyId, PERPS_USDC_CURRENCY, subExchangeOf } from "./hypevmFamily.js";

const token = "0x6d1e7cde53ba9467b783cb7c530ce054";

describe("hypevmFamily", () => {
  it("reads accounts as EVM addresses, checksummed and keyed in lower case", () => {
    const parsed = hypevmFamily.address.parse("0x70997970c51812dc3a010c7d01b50e0d17dc79c8");
    expect(parsed).toBe("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
    expect(hypevmFamily.address.key(parsed!)).toBe("0x70997970c51812dc3a010c7d01b50e0d17dc79c8");
    expect(hypevmFamily.address.parse("0x1234")).toBeUndefined();
  });

  it("reads perps USDC, spot token ids and sub-exchange currencies as currency ids", () => {
    expect(hypevmFamily.nativeCurrency).toBe(PERPS_USDC_CURRENCY);
    expect(parseCurrencyId(PERPS_USDC_CURRENCY)).toBe(PERPS_USDC_CURRENCY);
    expect(parseCurrencyId(token.toUpperCase().replace("0X", "0x"))).toBe(token);
    const onDex = `${token}${Buffer.from("xyz").toString("hex")}`;
    expect(parseCurrencyId(onDex)).toBe(onDex);
    expect(subExchangeOf(onDex)).toBe("xyz");
    expect(subExchangeOf(token)).toBe("");
    // Odd hex, too short, or exactly an account's length.
    for (const bad of [`${token}a`, "0x00", `${token}01020304`, "6d1e7cde53ba9467b783cb7c530ce054"])
      expect(parseCurrencyId(bad), bad).toBeUndefined();
  });

  it("reads the ledger's 32-byte hashes", () => {
    expect(hypevmFamily.parseTransactionHash(`0x${"AB".repeat(32)}`)).toBe(`0x${"ab".repeat(32)}`);
    expect(hypevmFamily.parseTransactionHash("ab".repeat(32))).toBeUndefined();
  });
});
