import { describe, expect, it } from "vitest";
import { convertAmount } from "../pricing/convertAmount.js";
import { type PriceQuoteInput, priceQuote } from "./priceQuote.js";

const eth = { decimals: 18, usdPriceE18: 3000n * 10n ** 18n };
const usdc = { decimals: 6, usdPriceE18: 10n ** 18n };
const base: PriceQuoteInput = {
  tradeType: "EXACT_INPUT",
  amount: 10n ** 18n,
  currencyIn: eth,
  currencyOut: eth,
  fillGasCost: 21_000n * 10n ** 9n,
  fillRentCost: 0n,
  destinationNative: eth,
  serviceFeeBps: 5n,
  slippageBps: 50n,
  isFixedRate: true,
};

describe("priceQuote", () => {
  it("takes gas and service fees out of an exact input bridge", () => {
    const quote = priceQuote(base)!;
    expect(quote.relayerGasFee).toBe(21_000_000_000_000n);
    expect(quote.relayerServiceFee).toBe(500_000_000_000_000n);
    expect(quote.amountOut).toBe(10n ** 18n - 21_000_000_000_000n - 500_000_000_000_000n);
    expect(quote.minimumAmountOut).toBe(quote.amountOut);
  });

  it("converts across currencies at USD prices and applies slippage to swaps", () => {
    const quote = priceQuote({ ...base, currencyOut: usdc, isFixedRate: false })!;
    const net = 10n ** 18n - quote.relayerGasFee - quote.relayerServiceFee;
    expect(quote.amountOut).toBe((net * 3000n) / 10n ** 12n);
    expect(quote.minimumAmountOut).toBe(quote.amountOut - (quote.amountOut * 50n) / 10_000n);
  });

  it("charges gas in the input currency when it differs from the destination's native", () => {
    const quote = priceQuote({ ...base, amount: 100_000_000n, currencyIn: usdc, currencyOut: usdc })!;
    // 0.000021 ETH at 3000 USD = 0.063 USDC
    expect(quote.relayerGasFee).toBe(63_000n);
    expect(quote.relayerServiceFee).toBe(50_000n);
    expect(quote.amountOut).toBe(100_000_000n - 113_000n);
  });

  it("grosses up an exact output so the user pays fees on top and the output is exact", () => {
    const quote = priceQuote({ ...base, tradeType: "EXACT_OUTPUT", amount: 5n * 10n ** 17n })!;
    expect(quote.amountOut).toBe(5n * 10n ** 17n);
    expect(quote.minimumAmountOut).toBe(quote.amountOut);
    expect(quote.amountIn - quote.relayerGasFee - quote.relayerServiceFee).toBe(quote.amountOut);
    // the service fee is at least its bps of what is paid in
    expect(quote.relayerServiceFee * 10_000n).toBeGreaterThanOrEqual(quote.amountIn * 5n - 10_000n);
  });

  it("round-trips: an exact input of the exact output's input yields at least that output", () => {
    const exactOut = priceQuote({
      ...base,
      tradeType: "EXACT_OUTPUT",
      amount: 123_456_789n,
      currencyIn: usdc,
      currencyOut: eth,
    })!;
    const exactIn = priceQuote({ ...base, amount: exactOut.amountIn, currencyIn: usdc, currencyOut: eth })!;
    expect(exactIn.amountOut).toBeGreaterThanOrEqual(123_456_789n);
  });

  const recipients = [
    { recipient: "0x00000000000000000000000000000000000000a1", bps: 100n },
    { recipient: "0x00000000000000000000000000000000000000a2", bps: 25n },
  ];

  it("takes each app fee out of an exact input, rounded down, before converting", () => {
    const quote = priceQuote({
      ...base,
      amount: 100_000_001n,
      currencyIn: usdc,
      currencyOut: usdc,
      appFees: recipients,
    })!;
    expect(quote.appFees).toEqual([1_000_000n, 250_000n]);
    expect(quote.amountOut).toBe(100_000_001n - quote.relayerGasFee - quote.relayerServiceFee - 1_250_000n);
    expect(priceQuote({ ...base, appFees: [] })!.appFees).toEqual([]);
  });

  it("grosses an exact output up by the app fees too, the input adding up to the wei", () => {
    const quote = priceQuote({
      ...base,
      tradeType: "EXACT_OUTPUT",
      amount: 100_000_000n,
      currencyIn: usdc,
      currencyOut: usdc,
      appFees: recipients,
    })!;
    expect(quote.amountOut).toBe(100_000_000n);
    const [first, second] = quote.appFees;
    expect(first).toBe((quote.amountIn * 100n) / 10_000n);
    expect(second).toBe((quote.amountIn * 25n) / 10_000n);
    expect(quote.amountIn - quote.relayerGasFee - quote.relayerServiceFee - first - second).toBe(100_000_000n);
    expect(quote.relayerServiceFee * 10_000n).toBeGreaterThanOrEqual(quote.amountIn * 5n);
  });

  it("answers undefined when the fees' shares take the whole input", () => {
    const all = [{ recipient: recipients[0].recipient, bps: 10_000n }];
    expect(priceQuote({ ...base, appFees: all })).toBeUndefined();
    expect(priceQuote({ ...base, tradeType: "EXACT_OUTPUT", appFees: all })).toBeUndefined();
  });

  const sponsorAll = {
    components: ["execution", "swap", "relay", "app"] as const,
    bps: 10_000n,
    capMicroUsd: undefined,
  };

  it("gives an exact input's sponsored fees back as output, and the user pays only the rest", () => {
    const body = { ...base, amount: 100_000_000n, currencyIn: usdc, currencyOut: usdc, appFees: recipients };
    const plain = priceQuote(body)!;
    expect(plain.sponsored).toBeUndefined();
    const all = priceQuote({ ...body, sponsorship: sponsorAll })!;
    expect(all.sponsored!.total).toBe(plain.relayerGasFee + plain.relayerServiceFee + 1_250_000n);
    expect(all.amountIn).toBe(100_000_000n);
    expect(all.amountOut).toBe(100_000_000n);
    const capped = priceQuote({ ...body, sponsorship: { ...sponsorAll, capMicroUsd: 100_000n } })!;
    expect(capped.sponsored).toMatchObject({ total: 100_000n, capHit: true });
    expect(capped.amountOut).toBe(plain.amountOut + 100_000n);
  });

  it("lowers an exact output's deposit by what the sponsor pays", () => {
    const body = {
      ...base,
      tradeType: "EXACT_OUTPUT" as const,
      amount: 100_000_000n,
      currencyIn: usdc,
      currencyOut: usdc,
    };
    const plain = priceQuote(body)!;
    const half = priceQuote({ ...body, sponsorship: { ...sponsorAll, bps: 5_000n } })!;
    expect(half.amountOut).toBe(100_000_000n);
    expect(half.sponsored!.total).toBe(plain.relayerGasFee / 2n + plain.relayerServiceFee / 2n);
    expect(half.amountIn).toBe(plain.amountIn - half.sponsored!.total);
    expect(priceQuote({ ...body, sponsorship: sponsorAll })!.amountIn).toBe(100_000_000n);
  });

  it("charges the fill's rent in the input currency, beside the gas, both ways, and sponsors it only when named", () => {
    // USDC → USDC on Solana: 2,039,280 lamports of rent at 200 USD a SOL is 0.407856 USDC.
    const sol = { decimals: 9, usdPriceE18: 200n * 10n ** 18n };
    const body = {
      ...base,
      amount: 10_000_000n,
      currencyIn: usdc,
      currencyOut: usdc,
      fillGasCost: 5_000n,
      destinationNative: sol,
    };
    const without = priceQuote({ ...body, fillRentCost: 0n })!;
    const withRent = priceQuote({ ...body, fillRentCost: 2_039_280n })!;
    expect(without.rentFee).toBe(0n);
    expect(withRent.rentFee).toBe(407_856n);
    expect(withRent.relayerGasFee).toBe(without.relayerGasFee);
    expect(without.amountOut - withRent.amountOut).toBe(407_856n);
    const exactOut = { ...body, tradeType: "EXACT_OUTPUT" as const };
    const outWithout = priceQuote({ ...exactOut, fillRentCost: 0n })!;
    const outWith = priceQuote({ ...exactOut, fillRentCost: 2_039_280n })!;
    expect(outWith.amountOut).toBe(10_000_000n);
    expect(outWith.amountIn - outWith.relayerGasFee - outWith.relayerServiceFee - outWith.rentFee).toBe(10_000_000n);
    expect(outWith.amountIn).toBeGreaterThan(outWithout.amountIn + 407_855n);
    // The default buckets leave the rent with the user; naming it gives it back.
    expect(priceQuote({ ...body, fillRentCost: 2_039_280n, sponsorship: sponsorAll })!.sponsored!.sponsored.rent).toBe(
      0n,
    );
    const rentToo = { ...sponsorAll, components: [...sponsorAll.components, "rent" as const] };
    const sponsored = priceQuote({ ...body, fillRentCost: 2_039_280n, sponsorship: rentToo })!;
    expect(sponsored.sponsored!.sponsored.rent).toBe(407_856n);
    expect(sponsored.amountOut).toBe(10_000_000n);
  });

  describe("fixed-bps oracle pricing (oracleBps)", () => {
    const swap = { ...base, currencyOut: usdc, isFixedRate: false, oracleBps: 30n };
    /** The output of an input at the oracle rate less the bps, rounded down once. */
    const oracleLessBps = (amountIn: bigint) => convertAmount(amountIn * (10_000n - 30n), eth, usdc) / 10_000n;

    it("attack: an exact input gets the oracle rate less the bps, never more; gas is inside the bps, the service fee ignored", () => {
      const quote = priceQuote({ ...swap, serviceFeeBps: 0n })!;
      const fee = (10n ** 18n * 30n) / 10_000n;
      expect(quote.relayerGasFee + quote.relayerServiceFee).toBe(fee);
      expect(quote.relayerGasFee).toBe(21_000_000_000_000n);
      expect(quote.amountOut).toBe(convertAmount(10n ** 18n - fee, eth, usdc));
      expect(quote.amountOut).toBeLessThanOrEqual(oracleLessBps(10n ** 18n));
      // The same as with the normal service fee of 30 bps, less the gas it would add.
      const normal = priceQuote({ ...swap, oracleBps: undefined, serviceFeeBps: 30n })!;
      expect(quote.amountOut).toBeGreaterThan(normal.amountOut);
    });

    it("attack: an exact output costs at least the output at the oracle rate less the bps", () => {
      const quote = priceQuote({ ...swap, tradeType: "EXACT_OUTPUT", amount: 2_990_000_000n })!;
      expect(quote.amountOut).toBe(2_990_000_000n);
      expect(oracleLessBps(quote.amountIn)).toBeGreaterThanOrEqual(quote.amountOut);
      expect(oracleLessBps(quote.amountIn - 1n)).toBeLessThan(quote.amountOut + 1n);
      const netIn = convertAmount(quote.amountOut, usdc, eth, true);
      expect(quote.amountIn - quote.relayerGasFee - quote.relayerServiceFee).toBe(netIn);
      expect((quote.relayerGasFee + quote.relayerServiceFee) * 10_000n).toBeGreaterThanOrEqual(quote.amountIn * 30n);
    });

    it("attack: a fee below the fill's gas and rent is refused (the quoted fill never costs the solver more than its fee)", () => {
      // 30 bps of 0.007 ETH = 0.000021 ETH, the gas exactly; a little less input does not cover it.
      expect(priceQuote({ ...swap, amount: 7_000_000_000_000_000n })!.relayerServiceFee).toBe(0n);
      expect(priceQuote({ ...swap, amount: 6_999_999_999_990_000n })).toBeUndefined();
      expect(priceQuote({ ...swap, amount: 7_000_000_000_000_000n, fillRentCost: 1n })).toBeUndefined();
      expect(priceQuote({ ...swap, tradeType: "EXACT_OUTPUT", amount: 20_000_000n })).toBeUndefined();
    });

    it("takes app fees beside the bps, from the input", () => {
      const appFees = [{ recipient: "0x1", bps: 100n }];
      const quote = priceQuote({ ...swap, appFees })!;
      expect(quote.appFees).toEqual([10n ** 16n]);
      expect(quote.amountOut).toBe(convertAmount(10n ** 18n - 3n * 10n ** 15n - 10n ** 16n, eth, usdc));
      const out = priceQuote({ ...swap, appFees, tradeType: "EXACT_OUTPUT", amount: 2_000_000_000n })!;
      expect(out.amountIn - out.relayerGasFee - out.relayerServiceFee - out.appFees[0]).toBe(
        convertAmount(2_000_000_000n, usdc, eth, true),
      );
    });
  });

  it("answers undefined when fees exceed the input", () => {
    expect(priceQuote({ ...base, amount: 1000n })).toBeUndefined();
  });

  it("never loses precision on huge amounts", () => {
    expect(convertAmount(10n ** 40n, eth, eth)).toBe(10n ** 40n);
    expect(convertAmount(1n, usdc, eth)).toBe(333_333_333n);
    expect(convertAmount(1n, usdc, eth, true)).toBe(333_333_334n);
  });
});
