import type { Queryable } from "./queryable.js";

/**
 * The order a transfer on the perps exchange pays: the one its sender mapped (sender, nonce) to with `/authorize`
 * (a transfer routes only by its sender's own mapping: wallet = depositor = sender). Undefined when none.
 */
export async function orderOfMappedTransfer(db: Queryable, sender: string, nonce: bigint): Promise<string | undefined> {
  const { rows } = await db.query<{ order_id: string }>(
    `SELECT r.order_id FROM crossfill.nonce_mappings m JOIN crossfill.requests r ON r.id = m.request_id
     WHERE m.wallet = lower($1) AND m.depositor = lower($1) AND m.nonce = $2`,
    [sender, nonce.toString()],
  );
  return rows[0]?.order_id;
}

/** The request whose stored fill on a chain is the signer's transaction with this nonce; undefined when none. */
export async function requestOfSignedFill(
  db: Queryable,
  chainId: number,
  signer: string,
  nonce: bigint,
): Promise<string | undefined> {
  const { rows } = await db.query<{ request_id: string }>(
    `SELECT request_id FROM crossfill.fill_attempts WHERE chain_id = $1 AND solver = lower($2) AND nonce = $3`,
    [chainId, signer, nonce.toString()],
  );
  return rows[0]?.request_id;
}

/**
 * The order whose stored refund on a chain is the transaction stored under one of these hashes (the exchange's, or
 * the id it is stored by until that is read): a request's refund or an unmatched deposit's. Undefined for any other
 * transaction (the depository's transfer that refunds nothing).
 */
export async function orderOfSentRefund(
  db: Queryable,
  chainId: number,
  txHashes: readonly string[],
): Promise<string | undefined> {
  const { rows } = await db.query<{ order_id: string }>(
    `WITH keys AS (SELECT lower(h) AS tx_hash FROM unnest($2::text[]) h)
     SELECT r.order_id FROM crossfill.refunds f JOIN crossfill.requests r ON r.id = f.request_id
      WHERE f.chain_id = $1 AND f.tx_hash IN (SELECT tx_hash FROM keys)
     UNION ALL
     SELECT u.order_id FROM crossfill.unmatched_refunds u
      WHERE u.chain_id = $1 AND u.tx_hash IN (SELECT tx_hash FROM keys)
     LIMIT 1`,
    [chainId, txHashes],
  );
  return rows[0]?.order_id;
}
