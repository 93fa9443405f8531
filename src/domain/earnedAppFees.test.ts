import { describe, expect, it } from "vitest";
import { earnedAppFees } from "./earnedAppFees.js";

const quoted = [
  { recipient: "0xA", bps: "100", amount: "1000", amountFormatted: "0.001", amountUsd: "0.001" },
  { recipient: "0xB", bps: "33", amount: "333", amountFormatted: "0.000333", amountUsd: "0.000333" },
];
const amounts = (fees: ReturnType<typeof earnedAppFees>) => fees.map((fee) => [fee.amount, fee.amountUsd]);

describe("earnedAppFees", () => {
  it("scales an exact input's fees and their USD with what was deposited, rounded down", () => {
    const terms = { tradeType: "EXACT_INPUT" as const, amountIn: 100_000n };
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
    expect(earnedAppFees(quoted, { tradeType: "EXACT_OUTPUT", amountIn: 100_000n }, 200_000n, 6)).toEqual(quoted);
  });
});
