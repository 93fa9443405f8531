import type { RequestView } from "../../schema/requestsQuery.js";

/** A request's deposit address as its records show it, or null without one. */
export type DepositAddressRecord = {
  address: string;
  type: "open" | "strict";
  /** Who paid it, and the hash of that transfer: from the first deposit applied, null until one is seen. */
  depositor: string | null;
  depositTxHash: string | null;
};

/** The deposit address of a request and its first (not reorged) origin deposit. */
export function depositAddressOf(
  view: Pick<RequestView, "depositAddress" | "deposits" | "originChainId">,
): DepositAddressRecord | null {
  if (!view.depositAddress) return null;
  const deposit = view.deposits.find((d) => d.chainId === view.originChainId && !d.reorg);
  return {
    address: view.depositAddress.address,
    type: view.depositAddress.type,
    depositor: deposit?.depositor ?? null,
    depositTxHash: deposit?.txHash ?? null,
  };
}
