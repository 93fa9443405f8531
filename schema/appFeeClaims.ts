import type pg from "pg";
import { onchainSchemaIdent } from "./chainFacts.js";
import type { Queryable } from "./queryable.js";

export type AppFeeClaimStatus = "queued" | "sent" | "paid" | "failed";

export type AppFeeClaim = {
  id: string;
  wallet: string;
  chainId: number;
  currency: string;
  recipient: string;
  amount: bigint;
  status: AppFeeClaimStatus;
  txHash: string | null;
  rawTx: string | null;
  /** Payouts refused so far (the Depository could not cover it). */
  attempts: number;
  /** When a queued claim after a refusal is tried again; null otherwise. */
  nextAttemptAt: Date | null;
  /** Why the last payout was refused (and, on a failed claim, why it failed); null when none was. */
  lastError: string | null;
  createdAt: Date;
};

export type NewAppFeeClaim = Omit<
  AppFeeClaim,
  "status" | "txHash" | "rawTx" | "attempts" | "nextAttemptAt" | "lastError" | "createdAt"
> & { signature: string };

/** One wallet's unclaimed earnings per chain and currency: earned minus every claim written but failed ones. */
export type AppFeeBalance = { chainId: number; currency: string; amount: bigint };

type ClaimRow = {
  id: string;
  wallet: string;
  chain_id: string;
  currency: string;
  recipient: string;
  amount: string;
  status: AppFeeClaimStatus;
  tx_hash: string | null;
  raw_tx: string | null;
  attempts: number;
  next_attempt_at: Date | null;
  last_error: string | null;
  created_at: Date;
};

const toClaim = (row: ClaimRow): AppFeeClaim => ({
  id: row.id,
  wallet: row.wallet,
  chainId: Number(row.chain_id),
  currency: row.currency,
  recipient: row.recipient,
  amount: BigInt(row.amount),
  status: row.status,
  txHash: row.tx_hash,
  rawTx: row.raw_tx,
  attempts: row.attempts,
  nextAttemptAt: row.next_attempt_at,
  lastError: row.last_error,
  createdAt: row.created_at,
});

const BALANCES = `
  SELECT e.chain_id, e.currency, e.earned - coalesce(c.claimed, 0) AS amount
    FROM (SELECT chain_id, currency, sum(amount) AS earned FROM crossfill.app_fee_earnings
           WHERE recipient = lower($1) GROUP BY chain_id, currency) e
    LEFT JOIN (SELECT chain_id, currency, sum(amount) AS claimed FROM crossfill.app_fee_claims
                WHERE wallet = lower($1) AND status <> 'failed' GROUP BY chain_id, currency) c
      ON c.chain_id = e.chain_id AND c.currency = e.currency`;

/** A wallet's claimable balances, those above zero, by chain and currency. */
export async function appFeeBalances(db: Queryable, wallet: string): Promise<AppFeeBalance[]> {
  const { rows } = await db.query<{ chain_id: string; currency: string; amount: string }>(
    `SELECT * FROM (${BALANCES}) b WHERE amount > 0 ORDER BY chain_id, currency`,
    [wallet],
  );
  return rows.map((row) => ({ chainId: Number(row.chain_id), currency: row.currency, amount: BigInt(row.amount) }));
}

export type ClaimWriteResult =
  { written: true } | { written: false; reason: "duplicate" } | { written: false; reason: "balance"; balance: bigint };

/**
 * Writes a signed claim if the balance covers it: under a lock of its (wallet, chain, currency), so two claims at
 * once cannot both spend the same earnings; the id's key refuses the same signature twice. Call in a transaction.
 */
export async function writeAppFeeClaim(client: pg.PoolClient, claim: NewAppFeeClaim): Promise<ClaimWriteResult> {
  const wallet = claim.wallet.toLowerCase();
  const currency = claim.currency.toLowerCase();
  await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [
    `app-fee-claim:${wallet}:${claim.chainId}:${currency}`,
  ]);
  const { rows } = await client.query<{ amount: string }>(
    `SELECT amount FROM (${BALANCES}) b WHERE chain_id = $2 AND currency = $3`,
    [wallet, claim.chainId, currency],
  );
  const balance = BigInt(rows[0]?.amount ?? "0");
  const inserted = await client.query(
    `INSERT INTO crossfill.app_fee_claims (id, wallet, chain_id, currency, recipient, amount, signature)
     SELECT $1, $2, $3, $4, lower($5), $6, $7 WHERE $6::numeric <= $8::numeric
     ON CONFLICT (id) DO NOTHING RETURNING id`,
    [
      claim.id.toLowerCase(),
      wallet,
      claim.chainId,
      currency,
      claim.recipient,
      claim.amount.toString(),
      claim.signature,
      balance.toString(),
    ],
  );
  if (inserted.rowCount === 1) return { written: true };
  const existing = await client.query("SELECT 1 FROM crossfill.app_fee_claims WHERE id = $1", [claim.id.toLowerCase()]);
  return existing.rowCount ? { written: false, reason: "duplicate" } : { written: false, reason: "balance", balance };
}

export async function getAppFeeClaim(
  db: Queryable,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<AppFeeClaim | undefined> {
  const { rows } = await db.query<ClaimRow>(
    `SELECT * FROM crossfill.app_fee_claims WHERE id = $1${options.forUpdate ? " FOR UPDATE" : ""}`,
    [id.toLowerCase()],
  );
  return rows[0] && toClaim(rows[0]);
}

/** A wallet's claims, newest first. */
export async function listAppFeeClaims(db: Queryable, wallet: string, limit = 50): Promise<AppFeeClaim[]> {
  const { rows } = await db.query<ClaimRow>(
    "SELECT * FROM crossfill.app_fee_claims WHERE wallet = lower($1) ORDER BY created_at DESC, id LIMIT $2",
    [wallet, limit],
  );
  return rows.map(toClaim);
}

export async function markAppFeeClaimSent(
  db: pg.PoolClient,
  id: string,
  sent: { nonce: number | null; txHash: string; rawTx: string },
): Promise<void> {
  await db.query(
    `UPDATE crossfill.app_fee_claims SET status = 'sent', nonce = $2, tx_hash = $3, raw_tx = $4, updated_at = now()
      WHERE id = $1 AND status = 'queued'`,
    [id, sent.nonce, sent.txHash, sent.rawTx],
  );
}

/** A claim the indexer saw paid; `wasFailed`: it had failed on its payout's revert, which a reorg then mined again. */
export type IndexedClaimPayout = Pick<AppFeeClaim, "id" | "wallet" | "chainId" | "currency" | "amount" | "txHash"> & {
  wasFailed: boolean;
};

/**
 * Sent claims whose payout the indexer has seen mined become paid; so do claims failed because that payout reverted
 * (they keep its hash) when a reorg mined it again, successfully: it paid, so its amount is no longer claimable.
 */
export async function markIndexedAppFeeClaimsPaid(db: Queryable, onchainSchema: string): Promise<IndexedClaimPayout[]> {
  const { rows } = await db.query<ClaimRow & { was: AppFeeClaimStatus }>(
    `WITH seen AS (
       SELECT c.id, c.status FROM crossfill.app_fee_claims c
        WHERE (c.status = 'sent' OR (c.status = 'failed' AND c.tx_hash IS NOT NULL))
          AND (EXISTS (SELECT 1 FROM ${onchainSchemaIdent(onchainSchema)}.withdrawal w WHERE w.chain_id = c.chain_id AND w.tx_hash = c.tx_hash)
            OR EXISTS (SELECT 1 FROM crossfill.withdrawal_facts w WHERE w.chain_id = c.chain_id AND w.tx_hash = c.tx_hash))
        FOR UPDATE OF c)
     UPDATE crossfill.app_fee_claims c SET status = 'paid', updated_at = now()
       FROM seen WHERE c.id = seen.id
     RETURNING c.*, seen.status AS was`,
  );
  return rows.map((row) => {
    const claim = toClaim(row);
    return {
      id: claim.id,
      wallet: claim.wallet,
      chainId: claim.chainId,
      currency: claim.currency,
      amount: claim.amount,
      txHash: claim.txHash,
      wasFailed: row.was === "failed",
    };
  });
}

/**
 * Records a refused payout of a queued claim (`attempts` is the count it was read with, so two runs cannot both
 * count one refusal): tried again after `retryInMs`, or `failed` once it reaches `maxAttempts`, which returns its
 * amount to the balance. The claim as it now is; undefined when it was no longer queued at `attempts`.
 */
export async function recordAppFeeClaimRefusal(
  db: Queryable,
  id: string,
  refusal: { attempts: number; reason: string; retryInMs: number; maxAttempts: number },
): Promise<AppFeeClaim | undefined> {
  const { rows } = await db.query<ClaimRow>(
    `UPDATE crossfill.app_fee_claims
        SET attempts = attempts + 1, last_error = $3, updated_at = now(),
            status = CASE WHEN attempts + 1 >= $5 THEN 'failed' ELSE status END,
            next_attempt_at = CASE WHEN attempts + 1 >= $5 THEN NULL
                                   ELSE now() + make_interval(secs => $4 / 1000.0) END
      WHERE id = $1 AND status = 'queued' AND attempts = $2
      RETURNING *`,
    [id.toLowerCase(), refusal.attempts, refusal.reason, refusal.retryInMs, refusal.maxAttempts],
  );
  return rows[0] && toClaim(rows[0]);
}

/**
 * A sent claim whose payout reverted on-chain paid nothing: `failed`, which returns its amount to the balance; the
 * reverted transaction stays on the claim. The claim as it now is; undefined when it was no longer sent.
 */
export async function failRevertedAppFeeClaim(
  db: Queryable,
  id: string,
  reason: string,
): Promise<AppFeeClaim | undefined> {
  const { rows } = await db.query<ClaimRow>(
    `UPDATE crossfill.app_fee_claims SET status = 'failed', last_error = $2, next_attempt_at = NULL, updated_at = now()
      WHERE id = $1 AND status = 'sent' RETURNING *`,
    [id.toLowerCase(), reason],
  );
  return rows[0] && toClaim(rows[0]);
}

/**
 * Claims waiting for their payout job: queued ones at once (after a refusal, once their retry is due), sent ones
 * (re-sent until indexed) after a while.
 */
export async function findOpenAppFeeClaims(db: Queryable, sentOlderThanMs: number, limit = 100): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM crossfill.app_fee_claims
      WHERE (status = 'queued' AND (next_attempt_at IS NULL OR next_attempt_at <= now()))
         OR (status = 'sent' AND updated_at < now() - make_interval(secs => $1 / 1000.0))
      ORDER BY created_at LIMIT $2`,
    [sentOlderThanMs, limit],
  );
  return rows.map((row) => row.id);
}
