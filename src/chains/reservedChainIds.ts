import { PERPS_CHAIN_ID } from "../domain/perpsChain.js";

/** The chain id the spec and the official client give Bitcoin; no chains-file entry of another family may take it. */
export const BITCOIN_CHAIN_ID = 8253038;

/** The chain id the spec and the official client give Solana. */
export const SOLANA_CHAIN_ID = 792703809;

/** Ids that name a chain by the spec's choice, not a chain's own (EVM) id: the perps exchange's, Bitcoin's, Solana's. */
export const RESERVED_CHAIN_IDS: readonly number[] = [PERPS_CHAIN_ID, BITCOIN_CHAIN_ID, SOLANA_CHAIN_ID];

export const isReservedChainId = (id: number) => RESERVED_CHAIN_IDS.includes(id);
