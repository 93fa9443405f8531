import type { EsploraAddressStats } from "./createEsploraClient.js";

/**
 * What an address can spend, in satoshis, as the spec counts a Bitcoin balance: confirmed funded − confirmed spent −
 * spent in the mempool (mempool payments in are not counted until they confirm; they can still be replaced).
 */
export function spendableBalance(stats: EsploraAddressStats): bigint {
  return (
    BigInt(stats.chain_stats.funded_txo_sum) -
    BigInt(stats.chain_stats.spent_txo_sum) -
    BigInt(stats.mempool_stats.spent_txo_sum)
  );
}
