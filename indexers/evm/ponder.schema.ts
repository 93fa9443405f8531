// Ponder's root is indexers/evm; the tables live in schema/onchain.ts. Ponder hashes only this file's text into
// its build id, so the indexer's --schema is derived from a hash of the imported files (startEvmIndexer.ts).
export * from "../../schema/onchain.js";
