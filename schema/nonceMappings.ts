import type { Queryable } from "./requests.js";

export type NonceMapping = {
  depositor: string;
  nonce: bigint;
  requestId: string;
  wallet: string;
  walletChainId: number;
  signatureChainId: number;
  signature: string;
  apiKeyId: string | null;
  createdAt: Date;
};

type NonceMappingRow = {
  depositor: string;
  nonce: string;
  request_id: string;
  wallet: string;
  wallet_chain_id: string;
  signature_chain_id: string;
  signature: string;
  api_key_id: string | null;
  created_at: Date;
};

const COLUMNS =
  "depositor, nonce, request_id, wallet, wallet_chain_id, signature_chain_id, signature, api_key_id, created_at";

const toMapping = (row: NonceMappingRow): NonceMapping => ({
  depositor: row.depositor,
  nonce: BigInt(row.nonce),
  requestId: row.request_id,
  wallet: row.wallet,
  walletChainId: Number(row.wallet_chain_id),
  signatureChainId: Number(row.signature_chain_id),
  signature: row.signature,
  apiKeyId: row.api_key_id,
  createdAt: row.created_at,
});

/**
 * Records the mapping while its request is still `waiting`; undefined when the (depositor, nonce) is taken or the
 * request is not waiting (the caller reads which). Addresses are stored lowercase so the key is case-blind.
 */
export async function insertNonceMapping(
  db: Queryable,
  mapping: Omit<NonceMapping, "createdAt">,
): Promise<NonceMapping | undefined> {
  const { rows } = await db.query<NonceMappingRow>(
    `INSERT INTO crossfill.nonce_mappings (depositor, nonce, request_id, wallet, wallet_chain_id, signature_chain_id, signature, api_key_id)
     SELECT lower($1), $2, id, lower($4), $5, $6, $7, $8 FROM crossfill.requests WHERE id = $3 AND status = 'waiting'
     ON CONFLICT (depositor, nonce) DO NOTHING
     RETURNING ${COLUMNS}`,
    [
      mapping.depositor,
      mapping.nonce.toString(),
      mapping.requestId,
      mapping.wallet,
      mapping.walletChainId,
      mapping.signatureChainId,
      mapping.signature,
      mapping.apiKeyId,
    ],
  );
  return rows[0] && toMapping(rows[0]);
}

/** The request a transfer from `depositor` with `nonce` belongs to, if one was authorized. */
export async function findNonceMapping(
  db: Queryable,
  depositor: string,
  nonce: bigint,
): Promise<NonceMapping | undefined> {
  const { rows } = await db.query<NonceMappingRow>(
    `SELECT ${COLUMNS} FROM crossfill.nonce_mappings WHERE depositor = lower($1) AND nonce = $2`,
    [depositor, nonce.toString()],
  );
  return rows[0] && toMapping(rows[0]);
}
