import type { Queryable } from "./queryable.js";
import { type FactPosition, factPosition } from "../src/domain/factPosition.js";

/** One deposit-address deposit to sweep: its outpoint and its request. */
export type SweepableDeposit = { chainId: number; txHash: string; position: FactPosition; requestId: string };

/** A stored sweep: its own transaction (none when `skipped` says why no sweep is needed). */
export type DepositSweep = {
  requestId: string;
  sweepTxHash: string | null;
  rawTx: string | null;
  amount: bigint | null;
  fee: bigint | null;
  skipped: string | null;
  /** The excess of a strict EXACT_OUTPUT overpayment, paid back by the sweep; null when none. */
  returned: { recipient: string; amount: bigint } | null;
  confirmedAt: Date | null;
};

/**
 * Deposits paid to the deposit address of a request that succeeded (the fill does not wait for the sweep) and not
 * swept yet, or whose sweep is unconfirmed since `recheckAfterMs` (to re-send it, or see it mined). Refunded deposits
 * are never swept: their refund spends the same output.
 */
export async function findSweepableDeposits(
  db: Queryable,
  recheckAfterMs: number,
  limit = 100,
): Promise<SweepableDeposit[]> {
  const { rows } = await db.query<{ chain_id: string; tx_hash: string; log_index: string; request_id: string }>(
    `SELECT d.chain_id, d.tx_hash, d.log_index, d.request_id
       FROM crossfill.request_deposits d
       JOIN crossfill.request_deposit_addresses rda ON rda.request_id = d.request_id
       JOIN crossfill.requests r ON r.id = d.request_id
       LEFT JOIN crossfill.deposit_sweeps s
         ON s.chain_id = d.chain_id AND s.deposit_tx_hash = d.tx_hash AND s.deposit_log_index = d.log_index
      WHERE r.status = 'success' AND d.reorg IS NULL
        AND (s.chain_id IS NULL
          OR (s.skipped IS NULL AND s.confirmed_at IS NULL AND s.created_at < now() - make_interval(secs => $1 / 1000.0)))
      ORDER BY d.created_at LIMIT $2`,
    [recheckAfterMs, limit],
  );
  return rows.map((row) => ({
    chainId: Number(row.chain_id),
    txHash: row.tx_hash,
    position: factPosition(row.log_index),
    requestId: row.request_id,
  }));
}

type SweepRow = {
  request_id: string;
  amount: string | null;
  fee: string | null;
  tx_hash: string | null;
  raw_tx: string | null;
  skipped: string | null;
  returned_to: string | null;
  returned_amount: string | null;
  confirmed_at: Date | null;
};

const toSweep = (row: SweepRow): DepositSweep => ({
  requestId: row.request_id,
  sweepTxHash: row.tx_hash,
  rawTx: row.raw_tx,
  amount: row.amount === null ? null : BigInt(row.amount),
  fee: row.fee === null ? null : BigInt(row.fee),
  skipped: row.skipped,
  returned:
    row.returned_to === null || row.returned_amount === null
      ? null
      : { recipient: row.returned_to, amount: BigInt(row.returned_amount) },
  confirmedAt: row.confirmed_at,
});

/** The stored sweep of a deposit, if any. */
export async function getDepositSweep(
  db: Queryable,
  deposit: Pick<SweepableDeposit, "chainId" | "txHash" | "position">,
): Promise<DepositSweep | undefined> {
  const { rows } = await db.query<SweepRow>(
    `SELECT * FROM crossfill.deposit_sweeps WHERE chain_id = $1 AND deposit_tx_hash = $2 AND deposit_log_index = $3`,
    [deposit.chainId, deposit.txHash, deposit.position],
  );
  return rows[0] && toSweep(rows[0]);
}

/**
 * Stores a deposit's sweep before it is broadcast (or why none is needed); false when one is stored already (another
 * job won: its transaction is the one to send).
 */
export async function insertDepositSweep(
  db: Queryable,
  deposit: SweepableDeposit,
  sweep:
    | { rawTx: string; txHash: string; amount: bigint; fee: bigint; returned?: { recipient: string; amount: bigint } }
    | { skip: string },
): Promise<boolean> {
  const signed = "skip" in sweep ? undefined : sweep;
  const result = await db.query(
    `INSERT INTO crossfill.deposit_sweeps
       (chain_id, deposit_tx_hash, deposit_log_index, request_id, amount, fee, tx_hash, raw_tx, skipped, returned_to, returned_amount)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT DO NOTHING`,
    [
      deposit.chainId,
      deposit.txHash,
      deposit.position,
      deposit.requestId,
      signed?.amount.toString() ?? null,
      signed?.fee.toString() ?? null,
      signed?.txHash ?? null,
      signed?.rawTx ?? null,
      "skip" in sweep ? sweep.skip : null,
      signed?.returned?.recipient ?? null,
      signed?.returned?.amount.toString() ?? null,
    ],
  );
  return result.rowCount === 1;
}

export async function markDepositSweepConfirmed(
  db: Queryable,
  deposit: Pick<SweepableDeposit, "chainId" | "txHash" | "position">,
): Promise<void> {
  await db.query(
    `UPDATE crossfill.deposit_sweeps SET confirmed_at = now()
      WHERE chain_id = $1 AND deposit_tx_hash = $2 AND deposit_log_index = $3 AND confirmed_at IS NULL`,
    [deposit.chainId, deposit.txHash, deposit.position],
  );
}
