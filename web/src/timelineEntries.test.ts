import { describe, expect, it } from "vitest";
import { timelineEntries } from "./timelineEntries";

const event = (id: string, status: string, createdAt: string, failReason: string | null = null) => ({
  id,
  status,
  createdAt,
  failReason,
  refundFailReason: null,
});

describe("timelineEntries", () => {
  it("places a reorged deposit at the moment it was found, among the status changes", () => {
    const events = [
      event("1", "waiting", "2026-11-24T10:00:00.000Z"),
      event("2", "pending", "2026-11-24T10:00:05.000Z"),
      event("3", "failure", "2026-11-24T10:00:09.000Z", "DEPOSIT_REORGED"),
    ];
    const reorg = {
      detectedAt: Date.parse("2026-11-24T10:00:08.500Z"),
      reason: "deposit transaction not found",
      blockNumber: 7,
    };
    const entries = timelineEntries(events, [
      { txHash: "0xaa", chainId: 1, reorg: null },
      { txHash: "0xbb", chainId: 1, reorg },
    ]);
    expect(entries.map((entry) => (entry.kind === "status" ? entry.event.status : `reorg ${entry.txHash}`))).toEqual([
      "waiting",
      "pending",
      "reorg 0xbb",
      "failure",
    ]);
    expect(entries[2]).toMatchObject({ reason: "deposit transaction not found", blockNumber: 7 });
  });

  it("keeps the order of status changes sharing a timestamp, and puts an undated reorg last", () => {
    const at = "2026-11-24T10:00:00.000Z";
    const entries = timelineEntries(
      [event("1", "waiting", at), event("2", "pending", at)],
      [{ txHash: "0xcc", chainId: 1, reorg: {} }],
    );
    expect(entries.map((entry) => (entry.kind === "status" ? entry.event.id : entry.reason))).toEqual([
      "1",
      "2",
      "the deposit is no longer on chain",
    ]);
  });
});
