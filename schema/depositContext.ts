import { type DepositFact, MEMPOOL_BLOCK_HASH, sameAppliedDepositSql } from "./chainFacts.js";
import type { DepositAddressType } from "./depositAddresses.js";
import type { Queryable } from "./requests.js";

export type DepositContext = {
  /** This deposit is applied already, to its request or as a child (`sameAppliedDepositSql`: a reorg's re-mine included). */
  applied: boolean;
  /** It was applied from its mempool sighting, not reorged out since: its block confirms that one. */
  appliedFromMempool: boolean;
  /** The kind of deposit address the request is paid to, if it has one. */
  depositAddressType: DepositAddressType | undefined;
};

/**
 * What the reconcile must know of a deposit and its request before applying it, in one read (it runs in the
 * transaction a client's `pending` waits on). Read it in a statement after the one that locked the request: a
 * statement that waited for the lock reads with a snapshot from before, and would miss the deposit the lock's previous
 * holder applied.
 */
export async function readDepositContext(db: Queryable, requestId: string, fact: DepositFact): Promise<DepositContext> {
  const { rows } = await db.query<{
    applied: boolean;
    applied_from_mempool: boolean;
    deposit_address_type: DepositAddressType | null;
  }>(
    `WITH fact AS (SELECT $1::bigint AS chain_id, $2::text AS tx_hash, $3::integer AS log_index, $4::text AS block_hash,
                          $6::text AS currency, $7::numeric AS amount, $8::text AS depositor)
     SELECT EXISTS (SELECT 1 FROM crossfill.request_deposits a, fact
                     WHERE a.chain_id = fact.chain_id AND a.tx_hash = fact.tx_hash AND ${sameAppliedDepositSql("a", "fact")})
              AS applied,
            EXISTS (SELECT 1 FROM crossfill.request_deposits
                     WHERE chain_id = $1 AND tx_hash = $2 AND log_index = $3 AND block_hash = $5 AND reorg IS NULL)
              AS applied_from_mempool,
            (SELECT type FROM crossfill.request_deposit_addresses WHERE request_id = $9) AS deposit_address_type`,
    [
      fact.chainId,
      fact.txHash,
      fact.logIndex,
      fact.blockHash,
      MEMPOOL_BLOCK_HASH,
      fact.currency,
      fact.amount.toString(),
      fact.depositor,
      requestId,
    ],
  );
  const row = rows[0]!;
  return {
    applied: row.applied,
    appliedFromMempool: fact.blockHash !== MEMPOOL_BLOCK_HASH && row.applied_from_mempool,
    depositAddressType: row.deposit_address_type ?? undefined,
  };
}
