import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bitcoinChainConfigSchema } from "../../src/chains/chainConfig.js";
import { devnetBitcoinChain } from "./devnetBitcoinChain.js";
import { type DevnetBitcoin, startDevnetBitcoin } from "./startDevnetBitcoin.js";

describe("devnetBitcoinChain", () => {
  let btc: DevnetBitcoin;
  beforeAll(async () => {
    btc = await startDevnetBitcoin({ blockTimeMs: 2_500 });
  });
  afterAll(async () => {
    await btc?.stop();
  });

  it("is a chains-file entry of the devnet Bitcoin, with its test accounts beside it", () => {
    const entry = devnetBitcoinChain(btc);
    expect(entry.solver).toBe(btc.solver.address);
    expect(entry.accounts).toHaveLength(5);
    expect(entry.accounts[0]).toEqual({ address: btc.accounts[0]!.address, wif: btc.accounts[0]!.wif });
    const { accounts: _, ...chain } = entry;
    expect(bitcoinChainConfigSchema.parse(entry)).toEqual({
      ...chain,
      blockTimeSeconds: 2.5,
      explorerUrl: "",
      startBlock: 0,
      confirmations: [{ blocks: 1 }, { blocks: 2, minAmounts: { BTC: "0.1" } }],
      refundUnmatchedAfterBlocks: 144,
      nativeCurrency: { symbol: "BTC", name: "Bitcoin", decimals: 8 },
      // no price feeds of its own: the devnet adds them (withDevnetPythFeeds)
      prices: {},
    });
  });
});
