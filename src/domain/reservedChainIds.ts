/**
 * The chain ids the spec and the official client give chains that have no (EVM) id of their own; no chains-file entry
 * of another family may take one. The only place they are written: code names them by these constants.
 */

/** The perps exchange chain's id. */
export const PERPS_CHAIN_ID = 1337;

/** Bitcoin's id. */
export const BITCOIN_CHAIN_ID = 8253038;

/** Solana's id. */
export const SOLANA_CHAIN_ID = 792703809;

/** Ids that name a chain by the spec's choice, not a chain's own (EVM) id: the perps exchange's, Bitcoin's, Solana's. */
export const RESERVED_CHAIN_IDS: readonly number[] = [PERPS_CHAIN_ID, BITCOIN_CHAIN_ID, SOLANA_CHAIN_ID];

export const isReservedChainId = (id: number) => RESERVED_CHAIN_IDS.includes(id);
