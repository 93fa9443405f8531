import type pg from "pg";
import { type DepositFact, insertRequestDepositsSql, requestDepositsParams } from "./chainFacts.js";

export type PendingMove = {
  /** The deposit that pays the request, applied to it in the same statement (`recordRequestDeposits`). */
  deposit: DepositFact & { requestId: string };
  /** What the applied deposit entitles the recipient to. */
  fillAmount: bigint;
  details: Record<string, unknown>;
};

/**
 * Applies deposits to `waiting` requests paid in one block and moves those requests to `pending` (`transitionRequest`,
 * with their status_events rows, the outbox), all in one statement: it runs in the transaction a block's clients wait
 * on. The caller holds the requests' row locks (`lockRequests`) and saw them `waiting`; one no longer `waiting` gets its
 * deposit recorded and keeps its status. Returns the ids moved.
 */
export async function transitionToPending(client: pg.PoolClient, moves: readonly PendingMove[]): Promise<string[]> {
  if (moves.length === 0) return [];
  const { rows } = await client.query<{ request_id: string }>(
    `WITH applied AS (${insertRequestDepositsSql(4)}),
          move AS (SELECT * FROM unnest($1::text[], $2::numeric[], $3::jsonb[]) WITH ORDINALITY
                             AS m (request_id, fill_amount, details, position)),
          moved AS (
            UPDATE crossfill.requests r SET status = 'pending', updated_at = now(), fill_amount = move.fill_amount
              FROM move WHERE r.id = move.request_id AND r.status = 'waiting'
            RETURNING r.id, move.details, move.position)
     INSERT INTO crossfill.status_events (request_id, from_status, to_status, details)
     SELECT id, 'waiting', 'pending', details FROM moved ORDER BY position
     RETURNING request_id`,
    [
      moves.map((move) => move.deposit.requestId),
      moves.map((move) => move.fillAmount.toString()),
      moves.map((move) => JSON.stringify(move.details)),
      ...requestDepositsParams(moves.map((move) => move.deposit)),
    ],
  );
  return rows.map((row) => row.request_id);
}
