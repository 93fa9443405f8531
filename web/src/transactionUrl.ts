import type { Chain } from "./types";

/** The chain explorer's page of a transaction, from the chain's explorerUrl and explorerPaths.transaction. */
export function transactionUrl(chain: Chain | undefined, txHash: string): string | undefined {
  if (!chain?.explorerUrl) return undefined;
  return chain.explorerUrl.replace(/\/+$/, "") + chain.explorerPaths.transaction.replace("{TX_HASH}", txHash);
}
