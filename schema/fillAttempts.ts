import type { Queryable } from "./requests.js";

export type FillAttempt = {
  requestId: string;
  chainId: number;
  solver: string;
  nonce: number;
  txHash: string;
  rawTx: string;
  currency: string;
  amount: bigint;
  recipient: string;
};

type FillAttemptRow = {
  request_id: string;
  chain_id: string;
  solver: string;
  nonce: string;
  tx_hash: string;
  raw_tx: string;
  currency: string;
  amount: string;
  recipient: string;
};

export async function getFillAttempt(db: Queryable, requestId: string): Promise<FillAttempt | undefined> {
  const { rows } = await db.query<FillAttemptRow>("SELECT * FROM crossfill.fill_attempts WHERE request_id = $1", [requestId]);
  const row = rows[0];
  return (
    row && {
      requestId: row.request_id,
      chainId: Number(row.chain_id),
      solver: row.solver,
      nonce: Number(row.nonce),
      txHash: row.tx_hash,
      rawTx: row.raw_tx,
      currency: row.currency,
      amount: BigInt(row.amount),
      recipient: row.recipient,
    }
  );
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
      attempt.solver.toLowerCase(),
      attempt.nonce,
      attempt.txHash,
      attempt.rawTx,
      attempt.currency.toLowerCase(),
      attempt.amount.toString(),
      attempt.recipient.toLowerCase(),
    ],
  );
  return result.rowCount === 1;
}

/** Pending requests with no fill signed yet: work a crashed or lost fill job left behind. */
export async function findPendingWithoutFill(db: Queryable, limit = 200): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT r.id FROM crossfill.requests r
      WHERE r.status = 'pending' AND NOT EXISTS (SELECT 1 FROM crossfill.fill_attempts f WHERE f.request_id = r.id)
      ORDER BY r.updated_at LIMIT $1`,
    [limit],
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
