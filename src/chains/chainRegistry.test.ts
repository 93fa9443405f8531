import { getAddress } from "viem";
import { describe, expect, it } from "vitest";
import { GRAPHQL_TEST_CHAINS } from "../../test/support/createTestGraphqlServer.js";
import { REGTEST_ADDRESS, TEST_BITCOIN_CHAIN } from "../../test/support/testBitcoinChain.js";
import { BITCOIN_NATIVE_CURRENCY } from "./bitcoin/bitcoinFamily.js";
import { chainConfigSchema } from "./chainConfig.js";
import { createChainRegistry } from "./chainRegistry.js";

describe("createChainRegistry", () => {
  const registry = createChainRegistry([...GRAPHQL_TEST_CHAINS, TEST_BITCOIN_CHAIN]);

  it("lists a Bitcoin chain's native BTC at the native id, and nothing else", () => {
    expect(registry.currencies(TEST_BITCOIN_CHAIN.id)).toEqual([
      {
        chainId: TEST_BITCOIN_CHAIN.id,
        address: BITCOIN_NATIVE_CURRENCY,
        symbol: "BTC",
        name: "Bitcoin",
        decimals: 8,
        metadata: { logoURI: "", verified: true, isNative: true },
      },
    ]);
    expect(registry.currency(TEST_BITCOIN_CHAIN.id, BITCOIN_NATIVE_CURRENCY)?.symbol).toBe("BTC");
    expect(registry.currency(TEST_BITCOIN_CHAIN.id, REGTEST_ADDRESS)).toBeUndefined();
  });

  it("still finds EVM currencies in any case, the native one at 0x0", () => {
    const chainId = GRAPHQL_TEST_CHAINS[0]!.id;
    expect(registry.currency(chainId, "0x0000000000000000000000000000000000000000")?.metadata.isNative).toBe(true);
    expect(registry.currency(chainId, BITCOIN_NATIVE_CURRENCY)).toBeUndefined();
  });

  it("names a chain's wrapped native currency only when its entry is marked wrapsNative", () => {
    const [plain] = GRAPHQL_TEST_CHAINS;
    const weth = "0x00000000000000000000000000000000000000Ee";
    const marked = chainConfigSchema.parse({
      ...plain,
      id: 31340,
      name: "marked",
      currencies: [{ symbol: "WETH", address: weth.toLowerCase(), decimals: 18, wrapsNative: true }],
    });
    const both = createChainRegistry([plain, marked, TEST_BITCOIN_CHAIN]);
    expect(both.wrappedNative(marked.id)).toMatchObject({
      chainId: marked.id,
      symbol: "WETH",
      address: getAddress(weth),
    });
    expect(both.wrappedNative(plain.id)).toBeUndefined();
    expect(both.wrappedNative(TEST_BITCOIN_CHAIN.id)).toBeUndefined();
    expect(
      chainConfigSchema.safeParse({
        ...marked,
        currencies: [
          ...marked.currencies,
          { ...marked.currencies[0], address: "0x00000000000000000000000000000000000000ef" },
        ],
      }).success,
    ).toBe(false);
  });

  it("gives quotes and records the currencies' logos and verification as the entry sets them", () => {
    const [plain] = GRAPHQL_TEST_CHAINS;
    const usdc = "0x00000000000000000000000000000000000000c1";
    const described = chainConfigSchema.parse({
      ...plain,
      id: 31341,
      name: "described",
      nativeCurrency: { symbol: "ETH", name: "Ether", decimals: 18, logoURI: "https://example.org/eth.svg" },
      currencies: [
        { symbol: "USDC", address: usdc, decimals: 6, logoURI: "https://example.org/usdc.svg", verified: false },
      ],
    });
    const withLogos = createChainRegistry([described]);
    expect(withLogos.currency(described.id, "0x0000000000000000000000000000000000000000")?.metadata).toEqual({
      logoURI: "https://example.org/eth.svg",
      verified: true,
      isNative: true,
    });
    expect(withLogos.currency(described.id, usdc)?.metadata).toEqual({
      logoURI: "https://example.org/usdc.svg",
      verified: false,
      isNative: false,
    });
  });
});
