import type { Hex } from "viem";
import type { AppliedDeposit } from "../schema/chainFacts.js";
import type { ChainRegistry } from "../src/chains/chainRegistry.js";
import type { EvmChainClient } from "../src/chains/evmChainClient.js";
import { requiredConfirmations } from "../src/domain/requiredConfirmations.js";
import { usdValueE18 } from "../src/pricing/usdValue.js";
import type { PriceSource } from "../src/pricing/priceSource.js";

export type DepositCheck =
  | { state: "final" }
  | { state: "confirming"; missingBlocks: number }
  | { state: "reorged"; reorg: Record<string, unknown> };

/**
 * Whether a deposit may be filled: deep enough for its value's confirmation tier, and still in the chain
 * where it was indexed (checked against the node itself, not the indexer, whose rows can lag a reorg).
 */
export async function checkDeposit(
  deposit: AppliedDeposit,
  deps: { chain: EvmChainClient; registry: ChainRegistry; prices: PriceSource },
): Promise<DepositCheck> {
  const { chain } = deps;
  const currency = deps.registry.currency(chain.chain.id, deposit.currency);
  const price = currency && (await deps.prices.usdPriceE18(currency));
  // An unpriced currency gets the strictest tier: its value is unknown.
  const usd = currency && price ? usdValueE18(deposit.amount, currency, price) : 2n ** 255n;
  const required = requiredConfirmations(chain.chain.confirmations, usd);
  const head = await chain.publicClient.getBlockNumber({ cacheTime: 0 });
  const confirmations = Number(head - deposit.blockNumber) + 1;
  if (confirmations < required) return { state: "confirming", missingBlocks: required - confirmations };

  const receipt = await chain.publicClient
    .getTransactionReceipt({ hash: deposit.txHash as Hex })
    .catch(() => undefined);
  if (receipt && receipt.status === "success" && receipt.blockHash.toLowerCase() === deposit.blockHash.toLowerCase())
    return { state: "final" };
  return {
    state: "reorged",
    reorg: {
      detectedAt: Date.now(),
      source: "fill-check",
      reason: receipt
        ? receipt.status !== "success"
          ? "deposit transaction failed"
          : "deposit mined in another block"
        : "deposit transaction not found",
      failReason: "DEPOSIT_REORGED",
      action: "fill",
      blockNumber: Number(deposit.blockNumber),
      blockHash: deposit.blockHash,
      ...(receipt ? { receiptStatus: receipt.status } : {}),
    },
  };
}
