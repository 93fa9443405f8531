import type { Chain } from "./types";

/**
 * The chain explorer's page of a transaction, from the chain's explorerUrl and explorerPaths.transaction. The path
 * goes before the explorer URL's query: Solana's explorer names its cluster there (`…/?cluster=devnet`).
 */
export function transactionUrl(chain: Chain | undefined, txHash: string): string | undefined {
  if (!chain?.explorerUrl) return undefined;
  let url: URL;
  try {
    url = new URL(chain.explorerUrl);
  } catch {
    return undefined;
  }
  url.pathname = url.pathname.replace(/\/+$/, "") + chain.explorerPaths.transaction.replace("{TX_HASH}", txHash);
  return url.toString();
}
