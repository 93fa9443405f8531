import { type DepositFact, MEMPOOL_BLOCK_HASH } from "./chainFacts.js";
import { sameAppliedDepositSql } from "./requestDeposits.js";
import type { DepositAddressType } from "./depositAddresses.js";
import type { Queryable } from "./queryable.js";

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
  return (await readDepositContexts(db, [{ requestId, fact }]))[0]!;
}

/** `readDepositContext` of several deposits in one statement, in the order given. */
export async function readDepositContexts(
  db: Queryable,
  deposits: ReadonlyArray<{ requestId: string; fact: DepositFact }>,
): Promise<DepositContext[]> {
  const column = <T>(value: (deposit: { requestId: string; fact: DepositFact }) => T) => deposits.map(value);
  const { rows } = await db.query<{
    applied: boolean;
    applied_from_mempool: boolean;
    deposit_address_type: DepositAddressType | null;
  }>(
    `SELECT EXISTS (SELECT 1 FROM crossfill.request_deposits a
                     WHERE a.chain_id = fact.chain_id AND a.tx_hash = fact.tx_hash AND ${sameAppliedDepositSql("a", "fact")})
              AS applied,
            EXISTS (SELECT 1 FROM crossfill.request_deposits m
                     WHERE m.chain_id = fact.chain_id AND m.tx_hash = fact.tx_hash AND m.log_index = fact.log_index
                       AND m.block_hash = $9 AND m.reorg IS NULL)
              AS applied_from_mempool,
            (SELECT type FROM crossfill.request_deposit_addresses WHERE request_id = fact.request_id) AS deposit_address_type
       FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::numeric[], $7::text[], $8::text[])
              WITH ORDINALITY AS fact (chain_id, tx_hash, log_index, block_hash, currency, amount, depositor, request_id, position)
      ORDER BY fact.position`,
    [
      column(({ fact }) => fact.chainId),
      column(({ fact }) => fact.txHash),
      column(({ fact }) => fact.position.toString()),
      column(({ fact }) => fact.blockHash),
      column(({ fact }) => fact.currency),
      column(({ fact }) => fact.amount.toString()),
      column(({ fact }) => fact.depositor),
      column(({ requestId }) => requestId),
      MEMPOOL_BLOCK_HASH,
    ],
  );
  return rows.map((row, index) => ({
    applied: row.applied,
    appliedFromMempool: deposits[index]!.fact.blockHash !== MEMPOOL_BLOCK_HASH && row.applied_from_mempool,
    depositAddressType: row.deposit_address_type ?? undefined,
  }));
}
