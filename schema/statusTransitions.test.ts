import { describe, expect, it } from "vitest";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import type { NewRequest } from "./requests.js";
import { markDepositReorged, recordRequestDeposit } from "./requestDeposits.js";
import { readOutboxAfter } from "./statusEvents.js";
import { statusTransitionOf } from "./statusTransitions.js";
import { transitionRequest } from "./transitionRequest.js";
import { withTransaction } from "./withTransaction.js";

/** A deposit fact paying `request` in full, mined at `timestamp`. */
const depositOf = (request: NewRequest, txByte: string, timestamp: bigint) => ({
  chainId: request.originChainId,
  txHash: `0x${txByte.repeat(32)}`,
  position: 0,
  orderId: request.orderId,
  depositor: request.user,
  currency: request.originCurrency,
  amount: request.amountIn,
  blockNumber: 7n,
  blockHash: `block-${txByte}`,
  timestamp,
  txFrom: request.user,
  txFee: null,
});

/** The transitions of these outbox ids as the metrics count them: the notifier's one read, mapped. */
async function readStatusTransitions(db: Parameters<typeof readOutboxAfter>[0], ids: readonly bigint[]) {
  const wanted = new Set(ids);
  const { events } = await readOutboxAfter(db, 0n, 1_000);
  return events.filter((event) => wanted.has(event.id)).map(statusTransitionOf);
}

describe("statusTransitionOf an outbox row read by readOutboxAfter", () => {
  const db = useMigratedDatabase();
  const move = async (requestId: string, to: "pending" | "failure" | "refund", failReason?: "SLIPPAGE") => {
    const result = await withTransaction(db.pool, (client) => transitionRequest(client, { requestId, to, failReason }));
    if (!result.applied) throw new Error(`not moved to ${to}`);
    return BigInt(result.eventId);
  };

  it("reads each event's move, chain pair and first deposit's block time; a refund carries the request's reason", async () => {
    const request = await insertTestRequest(db.pool, { originChainId: 31338, destinationChainId: 31339 });
    const deposit = depositOf(request, "ab", 1_700_000_000n);
    await withTransaction(db.pool, (client) => recordRequestDeposit(client, { ...deposit, requestId: request.id }));
    const ids = [await move(request.id, "pending"), await move(request.id, "failure", "SLIPPAGE")];
    ids.push(await move(request.id, "refund"));
    const read = await readStatusTransitions(db.pool, [...ids].reverse());
    expect(read.map(({ id, from, to, failReason }) => ({ id, from, to, failReason }))).toEqual([
      { id: ids[0], from: "waiting", to: "pending", failReason: null },
      { id: ids[1], from: "pending", to: "failure", failReason: "SLIPPAGE" },
      { id: ids[2], from: "failure", to: "refund", failReason: "SLIPPAGE" },
    ]);
    expect(read[0]).toMatchObject({ originChainId: 31338, destinationChainId: 31339, depositedAt: 1_700_000_000 });
    expect(read[0]!.createdAt).toBeInstanceOf(Date);
    expect(await readStatusTransitions(db.pool, [])).toEqual([]);
  });

  it("has no deposit time for a request whose only deposit was reorged out", async () => {
    const request = await insertTestRequest(db.pool);
    const deposit = depositOf(request, "cd", 1_700_000_100n);
    await withTransaction(db.pool, (client) => recordRequestDeposit(client, { ...deposit, requestId: request.id }));
    const pending = await move(request.id, "pending");
    await markDepositReorged(db.pool, deposit, { reason: "test" });
    expect((await readStatusTransitions(db.pool, [pending]))[0]!.depositedAt).toBeNull();
  });
});
