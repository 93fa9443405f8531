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

describe("refundFeeIn", () => {
  it("is the native fee as it is, a token's converted at current prices and rounded up", async () => {
    const prices = createStaticPriceSource({ ETH: "3000", USDC: "1" });
    const deps = { registry: appFeeTestRegistry, prices };
    expect(await refundFeeIn(chain, zeroAddress, deps)).toBe(1_000_000_000_000n);
    expect(await refundFeeIn(chain, usdc, deps)).toBe(3_000n);
    // $0.003 at USDC $0.7 is 4,285.7… units: never rounded down.
    const dearer = { registry: appFeeTestRegistry, prices: createStaticPriceSource({ ETH: "3000", USDC: "0.7" }) };
    expect(await refundFeeIn(chain, usdc, dearer)).toBe(4_286n);
  });

  it("is undefined without a price or for a currency the chain does not list", async () => {
    const unpriced = { registry: appFeeTestRegistry, prices: createStaticPriceSource({ ETH: "3000" }) };
    expect(await refundFeeIn(chain, usdc, unpriced)).toBeUndefined();
    const deps = { registry: appFeeTestRegistry, prices: createStaticPriceSource({ ETH: "3000", USDC: "1" }) };
    expect(await refundFeeIn(chain, "0x00000000000000000000000000000000000000c2", deps)).toBeUndefined();
  });
});
