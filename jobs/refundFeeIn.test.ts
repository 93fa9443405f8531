import { zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import { APP_FEE_TEST_USDC, appFeeTestRegistry } from "../test/support/appFeeTestChains.js";
import type { QuotePort } from "../src/chains/adapter.js";
import { createStaticPriceSource } from "../src/pricing/priceSource.js";
import { refundFeeIn } from "./refundFeeIn.js";

// Chain 10's refund costs 10^12 wei: at ETH $3,000 that is $0.003, 3,000 USDC units (6 decimals).
const chain = {
  chain: appFeeTestRegistry.chain(10),
  nativeCurrency: zeroAddress,
  estimateFee: async () => 1_000_000_000_000n,
} as unknown as QuotePort;
const usdc = APP_FEE_TEST_USDC.toLowerCase();
const refundee = "0x00000000000000000000000000000000000000a1";

describe("refundFeeIn", () => {
  it("is the native fee as it is, a token's converted at current prices and rounded up", async () => {
    const prices = createStaticPriceSource({ ETH: "3000", USDC: "1" });
    const deps = { registry: appFeeTestRegistry, prices };
    expect(await refundFeeIn(chain, zeroAddress, refundee, deps)).toEqual({ fee: 1_000_000_000_000n, rent: 0n });
    expect(await refundFeeIn(chain, usdc, refundee, deps)).toEqual({ fee: 3_000n, rent: 0n });
    // $0.003 at USDC $0.7 is 4,285.7… units: never rounded down.
    const dearer = { registry: appFeeTestRegistry, prices: createStaticPriceSource({ ETH: "3000", USDC: "0.7" }) };
    expect(await refundFeeIn(chain, usdc, refundee, dearer)).toEqual({ fee: 4_286n, rent: 0n });
  });

  it("is undefined without a price or for a currency the chain does not list", async () => {
    const unpriced = { registry: appFeeTestRegistry, prices: createStaticPriceSource({ ETH: "3000" }) };
    expect(await refundFeeIn(chain, usdc, refundee, unpriced)).toBeUndefined();
    const deps = { registry: appFeeTestRegistry, prices: createStaticPriceSource({ ETH: "3000", USDC: "1" }) };
    expect(await refundFeeIn(chain, "0x00000000000000000000000000000000000000c2", refundee, deps)).toBeUndefined();
  });

  it("adds what opening the refundee's account costs the payer, asked of the chain for that recipient", async () => {
    const asked: Array<[string, string]> = [];
    const renting = {
      ...chain,
      payoutRent: async (currency: string, recipient: string) => {
        asked.push([currency, recipient]);
        return recipient === refundee ? 2_000_000_000_000n : 0n;
      },
    } as QuotePort;
    const deps = { registry: appFeeTestRegistry, prices: createStaticPriceSource({ ETH: "3000", USDC: "1" }) };
    // $0.003 of network fee and $0.006 of rent: 9,000 USDC units.
    expect(await refundFeeIn(renting, usdc, refundee, deps)).toEqual({ fee: 9_000n, rent: 2_000_000_000_000n });
    expect(await refundFeeIn(renting, usdc, "0x00000000000000000000000000000000000000a2", deps)).toEqual({
      fee: 3_000n,
      rent: 0n,
    });
    expect(asked).toEqual([
      [usdc, refundee],
      [usdc, "0x00000000000000000000000000000000000000a2"],
    ]);
  });
});
