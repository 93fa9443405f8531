import { describe, expect, it } from "vitest";
import { REGTEST_ADDRESS, TEST_BITCOIN_CHAIN } from "../../../test/support/testBitcoinChain.js";
import { BITCOIN_NATIVE_CURRENCY } from "../../chains/bitcoin/bitcoinFamily.js";
import { toChainRecord } from "./toChainRecord.js";

const BTC = BITCOIN_NATIVE_CURRENCY;
const open = {
  disabled: false,
  depositEnabled: true,
  partialDisableLimitUsd: null,
  blockProductionLagging: false,
  reason: null,
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
      protocol: { v2: { chainId: "bitcoin-regtest", depository: REGTEST_ADDRESS } },
    });
    expect(new Set(Object.values(record.contracts).filter((value) => typeof value === "string"))).toEqual(
      new Set([BTC]),
    );
  });
});
