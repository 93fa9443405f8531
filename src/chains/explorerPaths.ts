/**
 * Where a transaction sits under a chain's `explorerUrl`: `{TX_HASH}` is replaced by the hash. Every chain of the
 * devnet and the EVM explorers it stands in for use the same path; REST (`/chains`) and GraphQL both answer it.
 */
export const EXPLORER_PATHS = { transaction: "/tx/{TX_HASH}" } as const;
