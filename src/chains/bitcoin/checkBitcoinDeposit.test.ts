import { describe, expect, it } from "vitest";
import type { AppliedDeposit } from "../chainFacts.js";
import type { EsploraStatus } from "./createEsploraClient.js";
import { checkBitcoinDeposit } from "./checkBitcoinDeposit.js";

const BLOCK = "b".repeat(64);
const deposit = (blockHash: string, blockNumber = 0n): AppliedDeposit => ({
  chainId: 8253038,
  txHash: "a".repeat(64),
  logIndex: 0,
  blockHash,
  blockNumber,
  depositor: "bcrt1q",
  currency: "btc",
  amount: 1n,
});
const esplora = (status: EsploraStatus | undefined, tip = 10) => ({
  txStatus: async () => status,
  tipHeight: async () => tip,
});
const confirmedAt = (height: number, hash = BLOCK): EsploraStatus => ({
  confirmed: true,
  block_height: height,
  block_hash: hash,
});

describe("checkBitcoinDeposit", () => {
  it("waits for a mempool deposit to get its confirmations, never fills it unconfirmed", async () => {
    expect(await checkBitcoinDeposit(esplora({ confirmed: false }), deposit(""), 1)).toEqual({
      state: "confirming",
      missingBlocks: 1,
    });
    expect(await checkBitcoinDeposit(esplora({ confirmed: false }), deposit(""), 0)).toMatchObject({
      missingBlocks: 1,
    });
    // Mined, and the poller has not recorded the block yet: Esplora's word counts.
    expect(await checkBitcoinDeposit(esplora(confirmedAt(10)), deposit(""), 2)).toEqual({
      state: "confirming",
      missingBlocks: 1,
    });
    expect(await checkBitcoinDeposit(esplora(confirmedAt(9)), deposit(""), 2)).toEqual({ state: "final" });
  });

  it("fails a mempool deposit that Esplora no longer knows as DOUBLE_SPEND", async () => {
    const check = await checkBitcoinDeposit(esplora(undefined), deposit(""), 1, 1234);
    expect(check).toEqual({
      state: "reorged",
      failReason: "DOUBLE_SPEND",
      reorg: expect.objectContaining({
        detectedAt: 1234,
        failReason: "DOUBLE_SPEND",
        reason: expect.stringMatching(/replaced/),
      }),
    });
  });

  it("counts confirmations of a deposit recorded in its block", async () => {
    expect(await checkBitcoinDeposit(esplora(confirmedAt(10), 10), deposit(BLOCK, 10n), 1)).toEqual({ state: "final" });
    expect(await checkBitcoinDeposit(esplora(confirmedAt(10), 10), deposit(BLOCK, 10n), 2)).toEqual({
      state: "confirming",
      missingBlocks: 1,
    });
  });

  it("follows a recorded deposit mined again in another block, and counts its confirmations there next", async () => {
    const moved = { ...confirmedAt(11, "c".repeat(64)), block_time: 1_700_000_123 };
    expect(await checkBitcoinDeposit(esplora(moved), deposit(BLOCK, 10n), 1)).toEqual({
      state: "moved",
      to: { logIndex: 0, blockNumber: 11n, blockHash: "c".repeat(64), timestamp: 1_700_000_123n },
    });
  });

  it("takes a recorded deposit that is gone or back in the mempool as DEPOSIT_REORGED", async () => {
    for (const [status, reason] of [
      [undefined, "deposit transaction not found"],
      [{ confirmed: false }, "deposit back in the mempool"],
    ] as const) {
      const check = await checkBitcoinDeposit(esplora(status), deposit(BLOCK, 10n), 1);
      expect(check).toMatchObject({
        state: "reorged",
        reorg: { reason, failReason: "DEPOSIT_REORGED", blockHash: BLOCK },
      });
      expect(check).not.toHaveProperty("failReason");
    }
  });

  it("reads the tip before the deposit's status: a reorg between the two reads is never counted as confirmations", async () => {
    // Confirmed at 10 with the tip at 10 until the first read; then a reorg drops the deposit and the tip is 11.
    let reads = 0;
    const reorgedAfterFirstRead = {
      txStatus: async () => (reads++ === 0 ? confirmedAt(10) : undefined),
      tipHeight: async () => (reads++ === 0 ? 10 : 11),
    };
    // Read in the other order, the deposit confirmed at 10 and the tip at 11 made two confirmations: a fill.
    expect(await checkBitcoinDeposit(reorgedAfterFirstRead, deposit(BLOCK, 10n), 2)).toMatchObject({
      state: "reorged",
      reorg: { reason: "deposit transaction not found" },
    });
  });
});
