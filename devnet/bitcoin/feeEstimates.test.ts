import { describe, expect, it } from "vitest";
import { feeEstimates, feeEstimateTargets } from "./feeEstimates.js";
import type { ChainTx } from "./regtestChain.js";

const queued = (satPerVbyte: number, vsize: number) => ({ fee: BigInt(satPerVbyte * vsize), vsize }) as ChainTx;

describe("feeEstimates", () => {
  it("is the 1 sat/vB floor for every target while the mempool fits in a block", () => {
    const estimates = feeEstimates([queued(50, 200)]);
    expect(Object.keys(estimates)).toEqual(feeEstimateTargets.map(String));
    expect(new Set(Object.values(estimates))).toEqual(new Set([1]));
  });

  it("rises to what it takes to get into the next n blocks of a backlog", () => {
    const estimates = feeEstimates([queued(30, 900_000), queued(20, 900_000), queued(10, 900_000)]);
    expect(estimates["1"]).toBe(20);
    expect(estimates["2"]).toBe(10);
    expect(estimates["3"]).toBe(1);
  });
});
