import { describe, expect, it } from "vitest";
import { NO_ORDER } from "../chainFacts.js";
import type { LedgerUpdate } from "./exchangeApi.js";
import { exchangeLedgerFacts } from "./exchangeLedgerFacts.js";
import { exchangeTransferId } from "./exchangeTransferId.js";
import { PERPS_USDC_CURRENCY } from "./hypevmFamily.js";

const depository = `0x${"d0".repeat(20)}`;
const solver = `0x${"50".repeat(20)}`;
const alice = `0x${"a1".repeat(20)}`;
const order = `0x${"0a".repeat(32)}`;
const request = `0x${"0b".repeat(32)}`;

/** A perps USDC `send` of `usdc` from `user` to `destination` with its nonce, at 1.5 s past the epoch. */
const send = (hash: string, user: string, destination: string, nonce: number, usdc = "2.5"): LedgerUpdate => ({
  time: 1_500,
  hash,
  delta: { type: "send", user, destination, sourceDex: "", destinationDex: "", token: "USDC", amount: usdc, nonce },
});

describe("exchangeLedgerFacts", () => {
  const factsOf = exchangeLedgerFacts({
    depository,
    solver,
    orderOf: async (sender, nonce) => (sender === alice && nonce === 7n ? order : undefined),
    fillOf: async (signer, nonce) => (signer === solver && nonce === 8n ? request : undefined),
    // The refund stored under the exchange's hash, or under the depository's (signer, nonce) before it was read.
    refundOf: async (txHashes) =>
      txHashes.includes("0xr1") || txHashes.includes(exchangeTransferId(depository, 9)) ? order : undefined,
  });
  const located = (hash: string) => ({ txHash: hash, position: 0, blockNumber: 1n, blockHash: hash, timestamp: 1n });

  it("reads deposits by the nonce mapping, the solver's stored fills and the depository's stored refunds", async () => {
    const facts = await factsOf(
      [
        send("0xd1", alice, depository, 7),
        send("0xd2", alice, depository, 99),
        send("0xf1", solver, alice, 8),
        send("0xr1", depository, alice, 1),
        send("0xr2", depository, alice, 9),
      ],
      [],
    );
    expect(facts).toEqual({
      deposits: [
        {
          ...located("0xd1"),
          orderId: order,
          depositor: alice,
          currency: PERPS_USDC_CURRENCY,
          amount: 250_000_000n,
          txFrom: alice,
          txFee: 0n,
        },
        {
          ...located("0xd2"),
          orderId: NO_ORDER,
          depositor: alice,
          currency: PERPS_USDC_CURRENCY,
          amount: 250_000_000n,
          txFrom: alice,
          txFee: 0n,
        },
      ],
      fills: [
        {
          ...located("0xf1"),
          requestId: request,
          currency: PERPS_USDC_CURRENCY,
          recipient: alice,
          amount: 250_000_000n,
          txFee: 0n,
        },
      ],
      withdrawals: [
        { ...located("0xr1"), orderId: order, recipient: alice, currency: PERPS_USDC_CURRENCY, amount: 250_000_000n },
        { ...located("0xr2"), orderId: order, recipient: alice, currency: PERPS_USDC_CURRENCY, amount: 250_000_000n },
      ],
    });
  });

  it("reads nothing of a transfer the service did not sign: the solver's or depository's unstored ones, a stranger's", async () => {
    const facts = await factsOf(
      [send("0x1", solver, alice, 100), send("0x2", depository, alice, 100), send("0x3", alice, solver, 7)],
      [],
    );
    expect(facts).toEqual({ deposits: [], fills: [], withdrawals: [] });
  });
});
