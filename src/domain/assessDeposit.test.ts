import { describe, expect, it } from "vitest";
import { type DepositTerms, assessDeposit } from "./assessDeposit.js";

const terms: DepositTerms = {
  originChainId: 10,
  originCurrency: "0x0000000000000000000000000000000000000000",
  tradeType: "EXACT_INPUT",
  amountIn: 1000n,
  amountOut: 990n,
  minimumAmountOut: 985n,
};
const deposit = { chainId: 10, currency: "0x0000000000000000000000000000000000000000", amount: 1000n };

describe("assessDeposit", () => {
  it("fills the quoted output for the quoted input", () => {
    expect(assessDeposit(terms, deposit)).toEqual({ fill: true, amountOut: 990n });
  });

  it("fills an EXACT_INPUT overpayment in full", () => {
    expect(assessDeposit(terms, { ...deposit, amount: 2000n })).toEqual({ fill: true, amountOut: 1980n });
  });

  it("fills a small EXACT_INPUT underpayment only while the output stays above the minimum", () => {
    expect(assessDeposit(terms, { ...deposit, amount: 996n })).toEqual({ fill: true, amountOut: 986n });
    expect(assessDeposit(terms, { ...deposit, amount: 990n })).toEqual({ fill: false, failReason: "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL" });
  });

  it("pays exactly the quoted output for EXACT_OUTPUT and refuses less than the quoted input", () => {
    const exactOut = { ...terms, tradeType: "EXACT_OUTPUT" as const };
    expect(assessDeposit(exactOut, { ...deposit, amount: 5000n })).toEqual({ fill: true, amountOut: 990n });
    expect(assessDeposit(exactOut, { ...deposit, amount: 999n })).toEqual({ fill: false, failReason: "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL" });
  });

  it("refuses a deposit on another chain or in another currency", () => {
    expect(assessDeposit(terms, { ...deposit, chainId: 11 })).toEqual({ fill: false, failReason: "DEPOSIT_CHAIN_MISMATCH" });
    expect(assessDeposit(terms, { ...deposit, currency: "0x00000000000000000000000000000000000000aa" })).toEqual({
      fill: false,
      failReason: "INCORRECT_DEPOSIT_CURRENCY",
    });
  });
});
