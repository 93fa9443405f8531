import type pg from "pg";
import type { Logger } from "pino";
import {
  type NotifyCursor,
  type OutboxGap,
  ensureNotifyCursor,
  lockNotifyCursor,
  saveNotifyCursor,
} from "../schema/notifyCursor.js";
import { type OutboxEvent, outboxHead, readOutboxAfter } from "../schema/statusEvents.js";
import { withTransaction } from "../schema/withTransaction.js";
import { repeatEvery } from "../src/runtime/repeatEvery.js";
import { type StatusUpdate, toStatusUpdate } from "../src/events/statusUpdate.js";

export type NotifyDeps = {
  pool: pg.Pool;
  publish: (update: StatusUpdate) => Promise<void>;
  /** Instead of `publish` once per event: all new events of a pass at once, in id order (a fan-out that batches its writes). */
  publishMany?: (updates: StatusUpdate[]) => Promise<void>;
  /** Instead of either: the pass's new outbox rows themselves, as read (the metrics count them from that one read). */
  publishEvents?: (events: OutboxEvent[]) => Promise<void>;
  logger: Logger;
  /** Several notifiers may share one database under different names (one per fan-out target). */
  cursorName?: string;
  batchSize?: number;
  now?: () => number;
};

export type NotifyTickResult = { published: number; cursor: bigint; gaps: number } | { busy: true };

/** How often the notifier looks for new outbox rows: it bounds status change → published latency. */
export const NOTIFY_EVERY_MS = 25;
// A gap is skipped only when every transaction running when it was seen has ended AND it is this old: the
// first rule alone could misjudge a transaction that took its id before its first write.
const GAP_MIN_AGE_MS = 2_000;
// Snapshots span the whole Postgres cluster, so one long transaction anywhere (another database, a report)
// would hold a gap open: after this long it is skipped anyway (logged). A status change's own transaction is
// milliseconds long. Events past a gap are published meanwhile either way; only the cursor waits.
const GAP_MAX_AGE_MS = 30_000;
const DEFAULT_CURSOR = "pubsub";

/**
 * Where the cursor can move after a read: over every id published (now or before) and over every gap whose
 * writer can no longer commit; ids published beyond a gap still waiting are remembered, not re-published.
 */
export function advanceCursor(
  cursor: NotifyCursor,
  readIds: readonly bigint[],
  snapshot: { xmin: bigint; xmax: bigint },
  options: { now: number; readWasFull: boolean },
): NotifyCursor & { abandoned: string[] } {
  const seen = new Set([...cursor.publishedAbove, ...readIds].map(String));
  const known = new Map(cursor.gaps.map((gap) => [gap.id, gap]));
  const highest = [...cursor.publishedAbove, ...readIds].reduce((max, id) => (id > max ? id : max), cursor.lastEventId);
  // A full read stops early: ids above its last row were not read, so they are not gaps.
  const until = options.readWasFull && readIds.length > 0 ? readIds[readIds.length - 1] : highest;
  let last = cursor.lastEventId;
  let blocked = false;
  const gaps: OutboxGap[] = [];
  const abandoned: string[] = [];
  for (let id = cursor.lastEventId + 1n; id <= until; id++) {
    const key = id.toString();
    if (seen.has(key)) {
      if (!blocked) last = id;
      continue;
    }
    const gap = known.get(key) ?? { id: key, xmax: snapshot.xmax.toString(), seenAt: options.now };
    const age = options.now - gap.seenAt;
    const writerGone = snapshot.xmin >= BigInt(gap.xmax) && age >= GAP_MIN_AGE_MS;
    if ((writerGone || age >= GAP_MAX_AGE_MS) && !blocked) {
      if (!writerGone) abandoned.push(key);
      last = id;
      continue;
    }
    blocked = true;
    gaps.push(gap);
  }
  const publishedAbove = [...seen]
    .map(BigInt)
    .filter((id) => id > last)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { name: cursor.name, lastEventId: last, publishedAbove, gaps, abandoned };
}

/**
 * One pass over the status_events outbox past the durable cursor: publishes each new event once, in id
 * order, then moves the cursor in the same transaction. A notifier that crashes after publishing and before
 * committing publishes those events again (at least once); two notifiers never run a pass at the same time.
 */
export async function notifyTick(deps: NotifyDeps): Promise<NotifyTickResult> {
  const name = deps.cursorName ?? DEFAULT_CURSOR;
  const now = deps.now ?? Date.now;
  const batchSize = deps.batchSize ?? 500;
  return withTransaction(deps.pool, async (client) => {
    const cursor = await lockNotifyCursor(client, name);
    if (!cursor) return { busy: true as const };
    const { events, snapshot } = await readOutboxAfter(client, cursor.lastEventId, batchSize);
    const already = new Set(cursor.publishedAbove.map(String));
    const fresh = events.filter((event) => !already.has(event.id.toString()));
    if (deps.publishEvents) {
      if (fresh.length > 0) await deps.publishEvents(fresh);
    } else if (deps.publishMany) {
      if (fresh.length > 0) await deps.publishMany(fresh.map((event) => toStatusUpdate(event, now())));
    } else {
      for (const event of fresh) await deps.publish(toStatusUpdate(event, now()));
    }
    const published = fresh.length;
    const next = advanceCursor(
      cursor,
      events.map((event) => event.id),
      snapshot,
      { now: now(), readWasFull: events.length === batchSize },
    );
    const changed =
      next.lastEventId !== cursor.lastEventId ||
      next.publishedAbove.join() !== cursor.publishedAbove.join() ||
      JSON.stringify(next.gaps) !== JSON.stringify(cursor.gaps);
    if (next.abandoned.length > 0)
      deps.logger.warn(
        { ids: next.abandoned },
        "outbox ids skipped after waiting 30 s for a transaction that might still write them",
      );
    if (changed) await saveNotifyCursor(client, next);
    return { published, cursor: next.lastEventId, gaps: next.gaps.length };
  });
}

export type RunningNotifier = { close(): Promise<void> };

/**
 * The notifier loop: a cheap look at the outbox's head every NOTIFY_EVERY_MS, and a locked pass when it
 * moved or a gap is still open. Runs in the worker; as many workers as wanted may run it.
 */
export async function startNotifier(deps: NotifyDeps & { everyMs?: number }): Promise<RunningNotifier> {
  const name = deps.cursorName ?? DEFAULT_CURSOR;
  await ensureNotifyCursor(deps.pool, name);
  const everyMs = deps.everyMs ?? NOTIFY_EVERY_MS;
  let handledHead = -1n;
  let openGaps = 0;
  const pass = async () => {
    const head = await outboxHead(deps.pool);
    if (head !== handledHead || openGaps > 0) {
      const result = await notifyTick(deps);
      if (!("busy" in result)) {
        openGaps = result.gaps;
        // a full batch leaves more to read: look again on the next pass
        handledHead = result.cursor >= head ? head : -1n;
      }
    }
  };
  return repeatEvery(everyMs, pass, (error) => deps.logger.warn({ err: error }, "notify pass failed"));
}
