import type { Queryable } from "./queryable.js";

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

/** A mapping's key: the wallet that signed it, the exchange account whose transfer it names, and that transfer's nonce. */
export type NonceMappingKey = { wallet: string; depositor: string; nonce: bigint };

/**
 * Records the mapping while its request is still `waiting`; undefined when the (wallet, depositor, nonce) is taken
 * or the request is not waiting (the caller reads which). Addresses are stored lowercase so the key is case-blind.
 */
export async function insertNonceMapping(
  db: Queryable,
  mapping: Omit<NonceMapping, "createdAt">,
): Promise<NonceMapping | undefined> {
  const { rows } = await db.query<NonceMappingRow>(
    `INSERT INTO crossfill.nonce_mappings (depositor, nonce, request_id, wallet, wallet_chain_id, signature_chain_id, signature, api_key_id)
     SELECT lower($1), $2, id, lower($4), $5, $6, $7, $8 FROM crossfill.requests WHERE id = $3 AND status = 'waiting'
     ON CONFLICT (wallet, depositor, nonce) DO NOTHING
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

/**
 * The mapping of one key, if it was authorized. A transfer from account `sender` with `nonce` pays the mapping
 * `{wallet: sender, depositor: sender, nonce}`: only the sender's own signature routes its transfer.
 */
export async function findNonceMapping(db: Queryable, key: NonceMappingKey): Promise<NonceMapping | undefined> {
  const { rows } = await db.query<NonceMappingRow>(
    `SELECT ${COLUMNS} FROM crossfill.nonce_mappings WHERE wallet = lower($1) AND depositor = lower($2) AND nonce = $3`,
    [key.wallet, key.depositor, key.nonce.toString()],
  );
  return rows[0] && toMapping(rows[0]);
}
