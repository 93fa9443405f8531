import { describe, expect, it } from "vitest";
import { REGTEST_ADDRESS, TEST_BITCOIN_CHAIN } from "../../../test/support/testBitcoinChain.js";
import { BITCOIN_NATIVE_CURRENCY } from "../../chains/bitcoin/bitcoinFamily.js";
import { chainConfigSchema, evmChainConfigSchema } from "../../chains/chainConfig.js";
import { SOLANA_NATIVE_CURRENCY } from "../../chains/svm/svmFamily.js";
import { toChainRecord } from "./toChainRecord.js";

const BTC = BITCOIN_NATIVE_CURRENCY;
const open = {
  disabled: false,
  depositEnabled: true,
  partialDisableLimitUsd: null,
  blockProductionLagging: false,
  reason: null,
  solverCurrencies: [],
};

/** An L2 entry with one token and nothing optional set. */
const entry = {
  vmType: "evm",
  id: 8453,
  name: "base",
  rpcUrl: "http://127.0.0.1:1",
  depository: "0x0000000000000000000000000000000000000001",
  receiver: "0x0000000000000000000000000000000000000002",
  currencies: [{ symbol: "USDC", address: "0x00000000000000000000000000000000000000C1", decimals: 6 }],
};

describe("toChainRecord", () => {
  it("shows a Bitcoin chain as bvm: native BTC at its id, no RPC, no contracts, the depository address", () => {
    // The devnet manifest lists native BTC among the currencies too: it is not a token.
    const chain = { ...TEST_BITCOIN_CHAIN, currencies: [{ symbol: "BTC", address: BTC, decimals: 8 } as const] };
    const record = toChainRecord(chain, undefined, open);
    expect(record).toMatchObject({
      id: 8253038,
      vmType: "bvm",
      httpRpcUrl: "",
      wsRpcUrl: "",
      currency: { symbol: "BTC", name: "Bitcoin", address: BTC, decimals: 8 },
      erc20Currencies: [],
      featuredTokens: [{ address: BTC, metadata: { isNative: true } }],
      solverAddresses: [],
      wrappedNativeCurrency: null,
      protocol: { v2: { chainId: "bitcoin-regtest", depository: REGTEST_ADDRESS } },
    });
    expect(new Set(Object.values(record.contracts).filter((value) => typeof value === "string"))).toEqual(
      new Set([BTC]),
    );
  });

  it("names an EVM chain's wrapped native currency (its wrapsNative entry), and none when no entry is marked", () => {
    const weth = {
      symbol: "WETH",
      name: "Wrapped Ether",
      address: "0x00000000000000000000000000000000000000E1",
      decimals: 18,
    };
    const chain = evmChainConfigSchema.parse({
      vmType: "evm",
      id: 31338,
      name: "devnet-a",
      rpcUrl: "http://127.0.0.1:1",
      depository: "0x0000000000000000000000000000000000000001",
      receiver: "0x0000000000000000000000000000000000000002",
      currencies: [{ symbol: "USDC", address: "0x00000000000000000000000000000000000000c1", decimals: 6 }, weth],
    });
    expect(toChainRecord(chain, undefined, open).wrappedNativeCurrency).toBeNull();
    const marked = {
      ...chain,
      currencies: chain.currencies.map((c) => (c.symbol === "WETH" ? { ...c, wrapsNative: true } : c)),
    };
    expect(toChainRecord(marked, undefined, open).wrappedNativeCurrency).toEqual({
      id: "weth",
      symbol: "WETH",
      name: "Wrapped Ether",
      address: weth.address,
      decimals: 18,
      supportsBridging: true,
    });
  });

  it("shows the entry's explorer name, icon, tags, base chain, Multicall3 and currency logos; empty or the chain's own when unset", () => {
    const bare = toChainRecord(evmChainConfigSchema.parse(entry), undefined, open);
    expect(bare).toMatchObject({ explorerName: "", iconUrl: "", tags: [], baseChainId: 8453 });
    expect(bare.contracts.multicall3).toBe("0x0000000000000000000000000000000000000000");
    expect(bare.featuredTokens.map((token) => token.metadata)).toEqual([
      { logoURI: "", verified: true, isNative: true },
      { logoURI: "", verified: true, isNative: false },
    ]);

    const multicall3 = "0xcA11bde05977b3631167028862bE2a173976CA11";
    const described = evmChainConfigSchema.parse({
      ...entry,
      explorerUrl: "https://basescan.org",
      explorerName: "Basescan",
      iconUrl: "https://example.org/base.svg",
      tags: ["l2", "op-stack"],
      baseChainId: 1,
      multicall3,
      nativeCurrency: { symbol: "ETH", name: "Ether", decimals: 18, logoURI: "https://example.org/eth.svg" },
      currencies: [{ ...entry.currencies[0], logoURI: "https://example.org/usdc.svg", verified: false }],
    });
    const record = toChainRecord(described, undefined, open);
    expect(record).toMatchObject({
      explorerName: "Basescan",
      iconUrl: "https://example.org/base.svg",
      tags: ["l2", "op-stack"],
      baseChainId: 1,
    });
    expect(record.contracts.multicall3).toBe(multicall3);
    expect(record.featuredTokens.map((token) => token.metadata)).toEqual([
      { logoURI: "https://example.org/eth.svg", verified: true, isNative: true },
      { logoURI: "https://example.org/usdc.svg", verified: false, isNative: false },
    ]);
    // Before the worker's first balance read the solver is known to hold nothing here.
    expect(record.solverCurrencies).toEqual([]);
  });

  it("lists as solver currencies the listed ones the solver held some of at its last read, whatever their case", () => {
    const usdc = entry.currencies[0]!.address;
    const chain = evmChainConfigSchema.parse(entry);
    const record = toChainRecord(chain, undefined, { ...open, solverCurrencies: [usdc.toLowerCase(), "0xunlisted"] });
    expect(record.solverCurrencies.map((currency) => currency.address)).toEqual([usdc]);
  });

  it("tells Solana mints differing only by case apart: only the one the solver holds is a solver currency", () => {
    const mint = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
    const otherCase = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1V";
    const chain = chainConfigSchema.parse({
      id: 792703809,
      vmType: "svm",
      name: "solana-devnet",
      rpcUrl: "http://127.0.0.1:8899",
      depository: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
      solver: "HN7cABqLq46Es1jh92dQQisAq662SmxELLLsHHe4YWrH",
      currencies: [
        { symbol: "SOL", address: SOLANA_NATIVE_CURRENCY, decimals: 9 },
        { symbol: "USDC", address: mint, decimals: 6 },
        { symbol: "FAKE", address: otherCase, decimals: 6 },
      ],
    });
    const record = toChainRecord(chain, undefined, { ...open, solverCurrencies: [SOLANA_NATIVE_CURRENCY, otherCase] });
    expect(record.solverCurrencies.map((currency) => currency.address)).toEqual([SOLANA_NATIVE_CURRENCY, otherCase]);
  });
});
