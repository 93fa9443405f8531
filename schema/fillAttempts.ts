import type { FillAttempt, StoredFillAttempt } from "../src/chains/fillLedger.js";
import type { Queryable } from "./queryable.js";
import { storedAddress } from "./storedAddress.js";

type FillAttemptRow = {
  request_id: string;
  chain_id: string;
  solver: string;
  nonce: string | null;
  tx_hash: string;
  raw_tx: string;
  currency: string;
  amount: string;
  recipient: string;
  sent_at: Date;
  bumps: number;
  previous_tx_hashes: string[];
  cancel_tx_hash: string | null;
  cancel_raw_tx: string | null;
  broadcast_failures: number;
};

export async function getFillAttempt(db: Queryable, requestId: string): Promise<StoredFillAttempt | undefined> {
  const { rows } = await db.query<FillAttemptRow>("SELECT * FROM crossfill.fill_attempts WHERE request_id = $1", [
    requestId,
  ]);
  const row = rows[0];
  return (
    row && {
      requestId: row.request_id,
      chainId: Number(row.chain_id),
      solver: row.solver,
      nonce: row.nonce === null ? null : Number(row.nonce),
      txHash: row.tx_hash,
      rawTx: row.raw_tx,
      currency: row.currency,
      amount: BigInt(row.amount),
      recipient: row.recipient,
      sentAt: row.sent_at,
      bumps: row.bumps,
      previousTxHashes: row.previous_tx_hashes,
      cancelTxHash: row.cancel_tx_hash,
      cancelRawTx: row.cancel_raw_tx,
      broadcastFailures: row.broadcast_failures,
    }
  );
}

/** Stores a re-priced fill on the same nonce (before it is broadcast); the one it replaces is kept. */
export async function recordFillReplacement(
  db: Queryable,
  requestId: string,
  replaced: string,
  next: { txHash: string; rawTx: string },
): Promise<boolean> {
  const result = await db.query(
    `UPDATE crossfill.fill_attempts SET tx_hash = $3, raw_tx = $4, previous_tx_hashes = previous_tx_hashes || $2::text,
            bumps = bumps + 1, sent_at = now() WHERE request_id = $1 AND tx_hash = $2 AND cancel_tx_hash IS NULL`,
    [requestId, replaced, next.txHash, next.rawTx],
  );
  return result.rowCount === 1;
}

/**
 * Stores the cancellation that spends the fill's nonce (before it is broadcast), or its re-priced version
 * when `replacing` names the cancellation it supersedes.
 */
export async function recordFillCancel(
  db: Queryable,
  requestId: string,
  cancel: { txHash: string; rawTx: string },
  replacing: string | null = null,
): Promise<boolean> {
  const result = await db.query(
    `UPDATE crossfill.fill_attempts SET cancel_tx_hash = $2, cancel_raw_tx = $3, sent_at = now()
      WHERE request_id = $1 AND cancel_tx_hash IS NOT DISTINCT FROM $4`,
    [requestId, cancel.txHash, cancel.rawTx, replacing],
  );
  return result.rowCount === 1;
}

/**
 * Stores the signed fill before it is broadcast. False when the request already has one: the caller then
 * re-sends the stored transaction instead of signing a second fill.
 */
export async function insertFillAttempt(db: Queryable, attempt: FillAttempt): Promise<boolean> {
  const result = await db.query(
    `INSERT INTO crossfill.fill_attempts (request_id, chain_id, solver, nonce, tx_hash, raw_tx, currency, amount, recipient)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (request_id) DO NOTHING`,
    [
      attempt.requestId,
      attempt.chainId,
      storedAddress(attempt.solver),
      attempt.nonce,
      attempt.txHash,
      attempt.rawTx,
      storedAddress(attempt.currency),
      attempt.amount.toString(),
      storedAddress(attempt.recipient),
    ],
  );
  return result.rowCount === 1;
}

/** Requests pending for over `olderThanMs` with no fill signed yet: work a crashed or lost fill job left behind. */
export async function findPendingWithoutFill(db: Queryable, olderThanMs: number, limit = 200): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT r.id FROM crossfill.requests r
      WHERE r.status = 'pending' AND r.updated_at < now() - make_interval(secs => $1 / 1000.0)
        AND NOT EXISTS (SELECT 1 FROM crossfill.fill_attempts f WHERE f.request_id = r.id)
      ORDER BY r.updated_at LIMIT $2`,
    [olderThanMs, limit],
  );
  return rows.map((row) => row.id);
}

/** Submitted fills not yet seen on-chain after a while: their job re-sends them or finds them reverted. */
export async function findStaleSubmitted(db: Queryable, olderThanMs: number, limit = 200): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM crossfill.requests WHERE status = 'submitted' AND updated_at < now() - make_interval(secs => $1 / 1000.0)
      ORDER BY updated_at LIMIT $2`,
    [olderThanMs, limit],
  );
  return rows.map((row) => row.id);
}

/** Counts a refusal of the fill by the node; returns how many there have been. */
export async function recordBroadcastFailure(db: Queryable, requestId: string, error: string): Promise<number> {
  const { rows } = await db.query<{ broadcast_failures: number }>(
    `UPDATE crossfill.fill_attempts SET broadcast_failures = broadcast_failures + 1, last_broadcast_error = $2
      WHERE request_id = $1 RETURNING broadcast_failures`,
    [requestId, error.slice(0, 500)],
  );
  return rows[0]?.broadcast_failures ?? 0;
}
