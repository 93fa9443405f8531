import { describe, expect, it } from "vitest";
import type { StoredFillAttempt } from "../fillLedger.js";
import { type FollowSvmFillDeps, type SvmSignatureStatus, followSvmFill } from "./followSvmFill.js";

const attempt: StoredFillAttempt = {
  requestId: "0x01",
  chainId: 792703809,
  solver: "solver",
  nonce: null,
  txHash: "sig-2",
  rawTx: "raw-2",
  currency: "11111111111111111111111111111111",
  amount: 5n,
  recipient: "recipient",
  sentAt: new Date(0),
  bumps: 1,
  previousTxHashes: ["sig-1"],
  cancelTxHash: null,
  cancelRawTx: null,
  broadcastFailures: 0,
};

/** A chain where the statuses and blockhash validity are the test's; everything done is recorded. */
function chain(statuses: Record<string, SvmSignatureStatus>, valid: boolean, refuse = false) {
  const done: string[] = [];
  const deps: FollowSvmFillDeps = {
    policy: { bumpAfterMs: 0, maxBumps: 2, maxBroadcastFailures: 2 },
    blockhashOf: (rawTx) => `hash-of-${rawTx}`,
    blockhashValid: async () => valid,
    statuses: async (signatures) => signatures.map((signature) => statuses[signature] ?? null),
    landed: async () => ({ slot: 9n, timestamp: 99n, fee: 5_000n }),
    send: async (rawTx) => {
      done.push(`send ${rawTx}`);
      if (refuse) throw new Error("insufficient funds");
    },
    resign: async () => ({ txHash: "sig-3", rawTx: "raw-3" }),
    storeReplacement: async (replaced, next) => (done.push(`store ${next.txHash} over ${replaced}`), true),
    recordBroadcastFailure: async (error) => (done.push(`refused: ${error}`), 1),
  };
  return { deps, done };
}

describe("followSvmFill", () => {
  it("finds an older version that landed: mined once finalized, waited for before", async () => {
    const confirmed = chain({ "sig-1": { slot: 9, err: null, confirmationStatus: "confirmed" } }, false);
    expect(await followSvmFill(attempt, confirmed.deps)).toEqual({
      state: "in-flight",
      txHash: "sig-1",
      action: "re-sent",
    });
    const finalized = chain({ "sig-1": { slot: 9, err: null, confirmationStatus: "finalized" } }, false);
    expect(await followSvmFill(attempt, finalized.deps)).toEqual({
      state: "mined",
      txHash: "sig-1",
      blockNumber: 9n,
      fee: 5_000n,
    });
    expect([...confirmed.done, ...finalized.done]).toEqual([]);
  });

  it("reports a version that landed failed as reverted (TRANSACTION_REVERTED), its fee spent", async () => {
    const { deps } = chain({ "sig-2": { slot: 9, err: { InstructionError: [0, "Custom"] } } }, true);
    expect(await followSvmFill(attempt, deps)).toMatchObject({
      state: "reverted",
      txHash: "sig-2",
      failure: { failReason: "TRANSACTION_REVERTED" },
      failedTransaction: { txHash: "sig-2", blockNumber: 9n, fee: 5_000n, call: { to: "recipient", value: "5" } },
    });
  });

  it("sends the stored bytes again while the blockhash is valid, counting a refusal", async () => {
    const { deps, done } = chain({}, true, true);
    expect(await followSvmFill(attempt, deps)).toEqual({ state: "in-flight", txHash: "sig-2", action: "re-sent" });
    expect(done).toEqual(["send raw-2", "refused: insufficient funds"]);
  });

  it("re-signs an expired one (stored first), and gives up after maxBumps or maxBroadcastFailures", async () => {
    const expired = chain({}, false);
    expect(await followSvmFill(attempt, expired.deps)).toEqual({
      state: "in-flight",
      txHash: "sig-3",
      action: "bumped",
    });
    expect(expired.done).toEqual(["store sig-3 over sig-2", "send raw-3"]);
    const spent = chain({}, false);
    expect(await followSvmFill({ ...attempt, bumps: 2 }, spent.deps)).toEqual({
      state: "cancelled",
      nonceSpentBy: "sig-2",
      neverAccepted: false,
    });
    expect(await followSvmFill({ ...attempt, broadcastFailures: 2 }, spent.deps)).toMatchObject({
      state: "cancelled",
      neverAccepted: true,
    });
    expect(spent.done).toEqual([]);
  });
});
