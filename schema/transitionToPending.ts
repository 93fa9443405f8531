import type pg from "pg";

export type PendingMove = {
  requestId: string;
  /** What the applied deposit entitles the recipient to. */
  fillAmount: bigint;
  details: Record<string, unknown>;
};

/**
 * `transitionRequest` to `pending` of several `waiting` requests paid in one block, in one statement with their
 * status_events rows (the outbox). The caller holds their row locks (`lockRequests`) and saw them `waiting`; one no
 * longer `waiting` is left as it is. Returns the ids moved.
 */
export async function transitionToPending(client: pg.PoolClient, moves: readonly PendingMove[]): Promise<string[]> {
  if (moves.length === 0) return [];
  const { rows } = await client.query<{ request_id: string }>(
    `WITH move AS (SELECT * FROM unnest($1::text[], $2::numeric[], $3::jsonb[]) WITH ORDINALITY
                             AS m (request_id, fill_amount, details, position)),
          moved AS (
            UPDATE crossfill.requests r SET status = 'pending', updated_at = now(), fill_amount = move.fill_amount
              FROM move WHERE r.id = move.request_id AND r.status = 'waiting'
            RETURNING r.id, move.details, move.position)
     INSERT INTO crossfill.status_events (request_id, from_status, to_status, details)
     SELECT id, 'waiting', 'pending', details FROM moved ORDER BY position
     RETURNING request_id`,
    [
      moves.map((move) => move.requestId),
      moves.map((move) => move.fillAmount.toString()),
      moves.map((move) => JSON.stringify(move.details)),
    ],
  );
  return rows.map((row) => row.request_id);
}
