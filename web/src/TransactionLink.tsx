import { CopyButton } from "./CopyButton";
import { transactionUrl } from "./transactionUrl";
import type { Chain } from "./types";

/** A transaction hash, linked to its chain's explorer when the chain has one, with a button to copy it. */
export function TransactionLink({ chain, txHash, label }: { chain: Chain | undefined; txHash: string; label: string }) {
  const url = transactionUrl(chain, txHash);
  const where = chain ? ` on ${chain.displayName}` : "";
  return (
    <li>
      {label}
      {where}:{" "}
      {url ? (
        <a href={url} class="hash" rel="noreferrer" aria-label={`${label} transaction ${txHash}${where}`}>
          {txHash}
        </a>
      ) : (
        <span class="hash">{txHash}</span>
      )}{" "}
      <CopyButton value={txHash} label={`${label} hash ${txHash}`} />
    </li>
  );
}
