import type pg from "pg";
import type { Queryable } from "./queryable.js";

/** A missing outbox id: waited for until every transaction running when it was first seen has ended. */
export type OutboxGap = { id: string; xmax: string; seenAt: number };

export type NotifyCursor = { name: string; lastEventId: bigint; publishedAbove: bigint[]; gaps: OutboxGap[] };

/** Creates the cursor at the outbox's current end the first time: history before the first notifier is not re-announced. */
export async function ensureNotifyCursor(db: Queryable, name: string): Promise<void> {
  await db.query(
    `INSERT INTO crossfill.notify_cursors (name, last_event_id)
     SELECT $1, COALESCE(max(id), 0) FROM crossfill.status_events
     ON CONFLICT (name) DO NOTHING`,
    [name],
  );
}

/** Locks the cursor for the caller's transaction; undefined when another notifier holds it (or it was never created). */
export async function lockNotifyCursor(client: pg.PoolClient, name: string): Promise<NotifyCursor | undefined> {
  const { rows } = await client.query(
    `SELECT last_event_id::text, published_above::text[] AS published_above, gaps
       FROM crossfill.notify_cursors WHERE name = $1 FOR UPDATE SKIP LOCKED`,
    [name],
  );
  const row = rows[0];
  return (
    row && {
      name,
      lastEventId: BigInt(row.last_event_id),
      publishedAbove: (row.published_above as string[]).map(BigInt),
      gaps: row.gaps as OutboxGap[],
    }
  );
}

export async function saveNotifyCursor(client: pg.PoolClient, cursor: NotifyCursor): Promise<void> {
  await client.query(
    `UPDATE crossfill.notify_cursors SET last_event_id = $2, published_above = $3::bigint[], gaps = $4, updated_at = now() WHERE name = $1`,
    [cursor.name, cursor.lastEventId.toString(), cursor.publishedAbove.map(String), JSON.stringify(cursor.gaps)],
  );
}
