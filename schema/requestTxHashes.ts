/**
 * SQL expressions for a request's origin deposit hashes (`inTxHashes`) and destination fill hashes
 * and refund hashes (`txHashes`), given the alias of a `crossfill.requests` row in the surrounding query. A fill is
 * shown by its stored attempt until it is indexed, then as the chain names it (the perps exchange names a transfer
 * only once it commits it: its attempt is stored under another id).
 */
export function inTxHashesSql(request: string): string {
  return `ARRAY(SELECT d.tx_hash FROM crossfill.request_deposits d WHERE d.request_id = ${request}.id
                 ORDER BY d.timestamp, d.block_number, d.log_index)`;
}

export function outTxHashesSql(request: string): string {
  return `ARRAY(SELECT DISTINCT h FROM (
                  SELECT f.tx_hash AS h FROM crossfill.request_fills f WHERE f.request_id = ${request}.id
                  UNION ALL
                  SELECT a.tx_hash FROM crossfill.fill_attempts a WHERE a.request_id = ${request}.id
                     AND NOT EXISTS (SELECT 1 FROM crossfill.request_fills i WHERE i.request_id = ${request}.id)
                  UNION ALL
                  SELECT x.tx_hash FROM crossfill.refunds x
                   WHERE x.request_id = ${request}.id AND x.refunds_request AND x.tx_hash IS NOT NULL) hashes)`;
}
