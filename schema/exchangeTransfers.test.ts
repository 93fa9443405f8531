import { describe, expect, it } from "vitest";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { insertDepositFacts, NO_ORDER, POLLER_SOURCE } from "./chainFacts.js";
import { orderOfSentRefund } from "./exchangeTransfers.js";
import { recordPollerCursors } from "./pollerCursors.js";
import { markRefundSent, queueRefund } from "./refunds.js";
import { markUnmatchedRefundSent, queueUnmatchedRefunds } from "./unmatchedRefunds.js";
import { withTransaction } from "./withTransaction.js";

const hash = (byte: string) => `0x${byte.repeat(32)}`;

describe("orderOfSentRefund", () => {
  const db = useMigratedDatabase({ max: 2 });

  it("names the order of a sent request refund or unmatched refund by its hash on its chain, and nothing else", async () => {
    const request = await insertTestRequest(db.pool, { originChainId: 1337 });
    const deposit = { chainId: 1337, txHash: hash("a1"), position: 0, currency: "0x" + "00".repeat(16), amount: 5n };
    const refundId = (await queueRefund(db.pool, {
      requestId: request.id,
      deposit,
      reason: "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL",
      refundsRequest: true,
      recipient: request.user,
    }))!;
    await withTransaction(db.pool, (client) =>
      markRefundSent(client, refundId, { amount: 5n, gasCost: 0n, nonce: 7, txHash: hash("b2"), rawTx: "{}" }),
    );

    // An unmatched deposit on the same chain, queued and sent.
    await withTransaction(db.pool, (client) =>
      recordPollerCursors(client, 1337, [{ position: 100, key: "100:" }], 100),
    );
    const unmatched = {
      chainId: 1337,
      txHash: hash("c3"),
      position: 0,
      orderId: NO_ORDER,
      depositor: "0xabc",
      currency: deposit.currency,
      amount: 9n,
      blockNumber: 10n,
      blockHash: hash("c3"),
      timestamp: 10n,
      txFrom: "0xabc",
      txFee: 0n,
    };
    await insertDepositFacts(db.pool, [unmatched], POLLER_SOURCE);
    await queueUnmatchedRefunds(db.pool, [{ chainId: 1337, afterBlocks: 1 }]);
    await withTransaction(db.pool, (client) =>
      markUnmatchedRefundSent(client, unmatched, { amount: 9n, fee: 0n, txHash: hash("d4"), rawTx: "{}" }),
    );

    expect(await orderOfSentRefund(db.pool, 1337, [hash("b2")])).toBe(request.orderId);
    expect(await orderOfSentRefund(db.pool, 1337, [hash("B2")])).toBe(request.orderId);
    expect(await orderOfSentRefund(db.pool, 1337, [hash("d4")])).toBe(NO_ORDER);
    // Found by any of the keys it may be stored under.
    expect(await orderOfSentRefund(db.pool, 1337, [hash("e5"), hash("d4")])).toBe(NO_ORDER);
    // The depository's other transfers, and a refund's hash on another chain, are no refund.
    expect(await orderOfSentRefund(db.pool, 1337, [hash("e5")])).toBeUndefined();
    expect(await orderOfSentRefund(db.pool, 31338, [hash("b2")])).toBeUndefined();
  });
});
