import { describe, expect, it } from "vitest";
import { DEFAULT_SPONSORED_COMPONENTS, sponsorFees } from "./sponsorFees.js";

// USDC-like: 6 decimals at 1 USD, so one unit is one micro-USD.
const sameUnits = [(amount: bigint) => amount, (micro: bigint) => micro] as const;
// ETH-like: 18 decimals at 3000 USD.
const eth = [
  (amount: bigint) => (amount * 3000n) / 10n ** 12n,
  (micro: bigint) => (micro * 10n ** 12n) / 3000n,
] as const;
const totals = { execution: 63_000n, swap: 0n, relay: 50_000n, app: 1_000_001n, rent: 7n };
// Every bucket but rent, app named explicitly (it is not sponsored by default).
const terms = {
  components: ["execution", "swap", "relay", "app"] as const,
  bps: 10_000n,
  capMicroUsd: undefined,
};

describe("sponsorFees", () => {
  it("leaves app fees and rent to the user by default: a sponsor pays app fees only when it names them", () => {
    const result = sponsorFees(totals, { ...terms, components: DEFAULT_SPONSORED_COMPONENTS }, ...sameUnits);
    expect(result.sponsored).toEqual({ execution: 63_000n, swap: 0n, relay: 50_000n, app: 0n, rent: 0n });
  });

  it("pays every selected bucket in full", () => {
    const result = sponsorFees(totals, terms, ...sameUnits);
    expect(result).toEqual({
      sponsored: { execution: 63_000n, swap: 0n, relay: 50_000n, app: 1_000_001n, rent: 0n },
      total: 1_113_001n,
      totalMicroUsd: 1_113_001n,
      capHit: false,
    });
    expect(sponsorFees(totals, { ...terms, components: ["rent", "relay"] }, ...sameUnits).total).toBe(50_007n);
  });

  it("applies subsidizationBps per bucket before the cap, truncating each", () => {
    const result = sponsorFees(totals, { ...terms, bps: 3_333n }, ...sameUnits);
    expect(result.sponsored).toEqual({ execution: 20_997n, swap: 0n, relay: 16_665n, app: 333_300n, rent: 0n });
    expect(sponsorFees(totals, { ...terms, bps: 0n }, ...sameUnits).total).toBe(0n);
  });

  it("spends a cap on the buckets in order and says when it was hit", () => {
    const result = sponsorFees(totals, { ...terms, capMicroUsd: 100_000n }, ...sameUnits);
    expect(result).toEqual({
      sponsored: { execution: 63_000n, swap: 0n, relay: 37_000n, app: 0n, rent: 0n },
      total: 100_000n,
      totalMicroUsd: 100_000n,
      capHit: true,
    });
    const roomy = sponsorFees(totals, { ...terms, capMicroUsd: 1_113_001n }, ...sameUnits);
    expect(roomy.capHit).toBe(false);
    expect(sponsorFees(totals, { ...terms, capMicroUsd: 0n }, ...sameUnits)).toMatchObject({ total: 0n, capHit: true });
  });

  it("never charges the sponsor more than the cap across currencies' rounding", () => {
    const wei = { execution: 21_000n * 10n ** 9n, swap: 0n, relay: 5n * 10n ** 14n, app: 0n, rent: 0n };
    const result = sponsorFees(wei, { ...terms, capMicroUsd: 1_000_001n }, ...eth);
    expect(result.capHit).toBe(true);
    expect(result.totalMicroUsd).toBeLessThanOrEqual(1_000_001n);
    expect(result.sponsored.execution).toBe(wei.execution);
  });
});
