import { describe, expect, it } from "vitest";
import { type DepositTerms, assessDeposit, paidAfterDeadline } from "./assessDeposit.js";

const terms: DepositTerms = {
  originChainId: 10,
  originCurrency: "0x0000000000000000000000000000000000000000",
  tradeType: "EXACT_INPUT",
  amountIn: 1000n,
  amountOut: 990n,
  minimumAmountOut: 985n,
  deadline: new Date(1_800_000_000_000),
  latePaymentSlippageBps: null,
  slippageBps: 50n,
  // 1 % over the quoted input still fills at the quoted rate.
  overpayment: { toleranceBps: 100n, beyond: "reprice" },
  fixedFeesIn: 0n,
};
const deposit = {
  chainId: 10,
  currency: "0x0000000000000000000000000000000000000000",
  amount: 1000n,
  timestamp: 1_799_999_999n,
};
const late = { ...deposit, timestamp: 1_800_000_001n };

describe("assessDeposit", () => {
  it("fills the quoted output for the quoted input", () => {
    expect(assessDeposit(terms, deposit)).toEqual({ fill: true, amountOut: 990n });
  });

  it("fills an EXACT_INPUT overpayment at the quoted rate up to the tolerance", () => {
    expect(assessDeposit(terms, { ...deposit, amount: 1010n })).toEqual({ fill: true, amountOut: 999n });
  });

  it("re-prices an EXACT_INPUT overpayment past the tolerance: never above the quoted rate, refunded past slippage", () => {
    const over = { ...deposit, amount: 2000n };
    // Without today's price, nothing is filled.
    expect(assessDeposit(terms, over)).toEqual({ fill: false, failReason: "SLIPPAGE" });
    // A better price today still pays the quoted rate; a worse one within the quote's 0.5 % pays today's.
    expect(assessDeposit(terms, over, 5000n)).toEqual({ fill: true, amountOut: 1980n });
    expect(assessDeposit(terms, over, 1971n)).toEqual({ fill: true, amountOut: 1971n });
    expect(assessDeposit(terms, over, 1969n)).toEqual({ fill: false, failReason: "SLIPPAGE" });
  });

  it("refunds a sponsored quote's overpayment outright (INCORRECT_PAYMENT): the sponsor agreed to the quote only", () => {
    const sponsored = { ...terms, overpayment: { toleranceBps: 0n, beyond: "refund" as const } };
    expect(assessDeposit(sponsored, deposit)).toEqual({ fill: true, amountOut: 990n });
    expect(assessDeposit(sponsored, { ...deposit, amount: 1001n }, 5000n)).toEqual({
      fill: false,
      failReason: "INCORRECT_PAYMENT",
    });
    // An underpayment still fills less, as any exact input does.
    expect(assessDeposit(sponsored, { ...deposit, amount: 999n })).toEqual({ fill: true, amountOut: 989n });
  });

  it("fills a small EXACT_INPUT underpayment only while the output stays above the minimum", () => {
    expect(assessDeposit(terms, { ...deposit, amount: 996n })).toEqual({ fill: true, amountOut: 986n });
    expect(assessDeposit(terms, { ...deposit, amount: 990n })).toEqual({
      fill: false,
      failReason: "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL",
    });
  });

  it("attack: an EXACT_INPUT underpayment still pays the fill's whole gas and rent, so a dust deposit costs the solver nothing", () => {
    // Quoted 100,000 in for 95,000 out, 5,000 of it the fill's gas and rent; slippage 100 % (minimum output 0) lets
    // any underpayment fill. Scaled with the deposit, 1,000 paid would buy 950 out and leave the solver paying 4,950
    // of the fill's gas: a griefer repeating it drains the solver for the cost of origin transfers.
    const dust = { ...terms, amountIn: 100_000n, amountOut: 95_000n, minimumAmountOut: 0n, fixedFeesIn: 5_000n };
    for (const amount of [1_000n, 5_000n])
      expect(assessDeposit(dust, { ...deposit, amount })).toEqual({
        fill: false,
        failReason: "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL",
      });
    // What is left after the fixed fees converts at the quoted net rate (95,000 out per 95,000 net in).
    expect(assessDeposit(dust, { ...deposit, amount: 50_000n })).toEqual({ fill: true, amountOut: 45_000n });
    expect(assessDeposit(dust, { ...deposit, amount: 5_001n })).toEqual({ fill: true, amountOut: 1n });
    // The quoted input and more fill as quoted.
    expect(assessDeposit(dust, { ...deposit, amount: 100_000n })).toEqual({ fill: true, amountOut: 95_000n });
    expect(assessDeposit(dust, { ...deposit, amount: 100_500n })).toEqual({ fill: true, amountOut: 95_475n });
  });

  it("pays exactly the quoted output for EXACT_OUTPUT and refuses less than the quoted input", () => {
    const exactOut = { ...terms, tradeType: "EXACT_OUTPUT" as const };
    expect(assessDeposit(exactOut, { ...deposit, amount: 5000n })).toEqual({ fill: true, amountOut: 990n });
    expect(assessDeposit(exactOut, { ...deposit, amount: 999n })).toEqual({
      fill: false,
      failReason: "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL",
    });
  });

  it("refuses a deposit on another chain or in another currency", () => {
    expect(assessDeposit(terms, { ...deposit, chainId: 11 })).toEqual({
      fill: false,
      failReason: "DEPOSIT_CHAIN_MISMATCH",
    });
    expect(assessDeposit(terms, { ...deposit, currency: "0x00000000000000000000000000000000000000aa" })).toEqual({
      fill: false,
      failReason: "INCORRECT_DEPOSIT_CURRENCY",
    });
  });

  it("refuses a Solana deposit of a mint differing from the quoted one only by case (another token); EVM ids match in any case", () => {
    const solana = {
      ...terms,
      originChainId: 792703809,
      originCurrency: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
    };
    const paid = { ...deposit, chainId: 792703809 };
    expect(assessDeposit(solana, { ...paid, currency: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1V" })).toEqual({
      fill: false,
      failReason: "INCORRECT_DEPOSIT_CURRENCY",
    });
    expect(assessDeposit(solana, { ...paid, currency: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" })).toEqual({
      fill: true,
      amountOut: 990n,
    });
    const token = { ...terms, originCurrency: "0x5FbDB2315678afecb367f032d93F642f64180aa3" };
    expect(assessDeposit(token, { ...deposit, currency: "0x5fbdb2315678afecb367f032d93f642f64180aa3" })).toEqual({
      fill: true,
      amountOut: 990n,
    });
  });

  it("refunds a deposit after the deadline unless late payment was allowed and the re-priced output is within it", () => {
    expect(assessDeposit(terms, { ...deposit, timestamp: 1_800_000_000n })).toEqual({ fill: true, amountOut: 990n });
    expect(assessDeposit(terms, late, 990n)).toEqual({ fill: false, failReason: "ORDER_EXPIRED" });
    const tolerant = { ...terms, latePaymentSlippageBps: 100n };
    expect(assessDeposit(tolerant, late)).toEqual({ fill: false, failReason: "ORDER_EXPIRED" });
    expect(assessDeposit(tolerant, late, 990n)).toEqual({ fill: true, amountOut: 990n });
    expect(assessDeposit(tolerant, late, 981n)).toEqual({ fill: true, amountOut: 981n });
    expect(assessDeposit(tolerant, late, 980n)).toEqual({ fill: false, failReason: "ORDER_EXPIRED" });
    // a better price now does not pay more than the quote promised
    expect(assessDeposit(tolerant, late, 2000n)).toEqual({ fill: true, amountOut: 990n });
    // mismatches are reported as such, late or not
    expect(assessDeposit(tolerant, { ...late, chainId: 11 }, 990n)).toEqual({
      fill: false,
      failReason: "DEPOSIT_CHAIN_MISMATCH",
    });
  });

  it("refuses any underpayment to a strict deposit address, and fills its overpayments as the trade type says", () => {
    const strict = { ...terms, strict: true };
    expect(assessDeposit(strict, { ...deposit, amount: 999n })).toEqual({
      fill: false,
      failReason: "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL",
    });
    expect(assessDeposit(strict, deposit)).toEqual({ fill: true, amountOut: 990n });
    // The spec's rule: all of a strict EXACT_INPUT overpayment fills (past the tolerance, at today's price).
    expect(assessDeposit(strict, { ...deposit, amount: 2000n }, 1975n)).toEqual({ fill: true, amountOut: 1975n });
    const exactOutput = { ...strict, tradeType: "EXACT_OUTPUT" as const };
    expect(assessDeposit(exactOutput, { ...deposit, amount: 2000n })).toEqual({ fill: true, amountOut: 990n });
    expect(assessDeposit(exactOutput, { ...deposit, amount: 999n })).toMatchObject({ fill: false });
  });
});

describe("paidAfterDeadline", () => {
  it("counts a deposit in the deadline's own second as on time, one a millisecond past it as late", () => {
    const deadline = new Date(1_700_000_000_000);
    expect(paidAfterDeadline(1_700_000_000n, deadline)).toBe(false);
    expect(paidAfterDeadline(1_699_999_999n, deadline)).toBe(false);
    expect(paidAfterDeadline(1_700_000_000n, new Date(1_699_999_999_999))).toBe(true);
  });
});
