import type { StatusEvent, TimelineDeposit } from "./types";

export type TimelineEntry =
  | { kind: "status"; at: string; event: StatusEvent }
  | { kind: "reorg"; at: string; txHash: string; reason: string; blockNumber: number | undefined };

/**
 * The request page's timeline: every status change, and each deposit found gone (reorged out or replaced) at the
 * moment it was found, oldest first. A reorg without its detection time goes last: it happened, when is unknown.
 */
export function timelineEntries(events: StatusEvent[], deposits: TimelineDeposit[]): TimelineEntry[] {
  const entries: TimelineEntry[] = events.map((event) => ({ kind: "status", at: event.createdAt, event }));
  for (const deposit of deposits) {
    if (!deposit.reorg) continue;
    const detectedAt = deposit.reorg.detectedAt;
    entries.push({
      kind: "reorg",
      at: typeof detectedAt === "number" ? new Date(detectedAt).toISOString() : "",
      txHash: deposit.txHash,
      reason: deposit.reorg.reason ?? "the deposit is no longer on chain",
      blockNumber: deposit.reorg.blockNumber,
    });
  }
  const time = (entry: TimelineEntry) => (entry.at ? Date.parse(entry.at) : Number.POSITIVE_INFINITY);
  // A stable sort keeps the status changes' own order when two share a timestamp.
  return entries.sort((a, b) => time(a) - time(b));
}
