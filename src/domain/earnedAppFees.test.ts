import { describe, expect, it } from "vitest";
import { earnedAppFees } from "./earnedAppFees.js";

const quoted = [
  { recipient: "0xA", bps: "100", amount: "1000", amountFormatted: "0.001", amountUsd: "0.001" },
  { recipient: "0xB", bps: "33", amount: "333", amountFormatted: "0.000333", amountUsd: "0.000333" },
];
const amounts = (fees: ReturnType<typeof earnedAppFees>) => fees.map((fee) => [fee.amount, fee.amountUsd]);

const noTolerance = { toleranceBps: 0n, beyond: "refund" as const };

describe("earnedAppFees", () => {
  it("scales an exact input's fees and their USD with what was deposited, rounded down", () => {
    // A tolerance of 50 %: all of 150,000 is paid at the quoted rate.
    const terms = {
      tradeType: "EXACT_INPUT" as const,
      amountIn: 100_000n,
      overpayment: { toleranceBps: 5_000n, beyond: "reprice" as const },
    };
    expect(earnedAppFees(quoted, terms, 100_000n, 6)).toEqual(quoted);
    expect(amounts(earnedAppFees(quoted, terms, 150_000n, 6))).toEqual([
      ["1500", "0.0015"],
      ["499", "0.000499"],
    ]);
    expect(earnedAppFees(quoted, terms, 99_999n, 6).map((fee) => fee.amountFormatted)).toEqual([
      "0.000999",
      "0.000332",
    ]);
  });

  it("keeps an exact output's quoted fees, whatever was overpaid", () => {
    expect(
      earnedAppFees(quoted, { tradeType: "EXACT_OUTPUT", amountIn: 100_000n, overpayment: noTolerance }, 200_000n, 6),
    ).toEqual(quoted);
  });

  it("never scales past the overpayment tolerance: an overpaid deposit earns the fees of the tolerated input", () => {
    const oneBps = { toleranceBps: 100n, beyond: "reprice" as const };
    const terms = { tradeType: "EXACT_INPUT" as const, amountIn: 100_000n, overpayment: oneBps };
    expect(amounts(earnedAppFees(quoted, terms, 5_000_000n, 6))).toEqual([
      ["1010", "0.00101"],
      ["336", "0.000336"],
    ]);
    // A sponsored quote (no tolerance): at most the quoted fees, whatever was paid.
    const sponsored = { ...terms, overpayment: noTolerance };
    expect(earnedAppFees(quoted, sponsored, 50_000_000n, 6)).toEqual(quoted);
  });
});
