import { describe, expect, it } from "vitest";
import type { DepositOutpoint } from "../schema/unmatchedRefunds.js";
import type { SweepableDeposit } from "../schema/depositSweeps.js";
import { positionPayload, withPosition } from "./withPosition.js";

describe("withPosition", () => {
  it("reads back the payload it queued, a position beyond 2^53 exactly, through JSON as Redis keeps it", () => {
    const deposit: SweepableDeposit = { chainId: 8253038, txHash: "aa", position: 2n ** 60n + 1n, requestId: "0x1" };
    const queued = JSON.parse(JSON.stringify(positionPayload(deposit)));
    expect(queued.position).toBe("1152921504606846977");
    expect(withPosition<SweepableDeposit>(queued)).toEqual(deposit);
    expect(withPosition<SweepableDeposit>(positionPayload({ ...deposit, position: 2 }))).toEqual({
      ...deposit,
      position: 2,
    });
  });

  it("reads a payload queued with a number position, as a worker before bigint positions queued it", () => {
    expect(withPosition<DepositOutpoint>({ chainId: 8253038, txHash: "aa", position: 2 })).toEqual({
      chainId: 8253038,
      txHash: "aa",
      position: 2,
    });
  });

  it("reads a payload queued before the rename (logIndex) as its position, keeping nothing of the old key", () => {
    const legacy = { chainId: 8253038, txHash: "bb", logIndex: 3 };
    expect(withPosition<DepositOutpoint>(legacy)).toEqual({ chainId: 8253038, txHash: "bb", position: 3 });
    expect(withPosition<DepositOutpoint>({ ...legacy, logIndex: 0 }).position).toBe(0);
  });
});
