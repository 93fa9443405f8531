import type pg from "pg";
import type { Logger } from "pino";
import { recordReceiptFill } from "../schema/receiptFills.js";
import { transitionRequest } from "../schema/transitionRequest.js";
import { withTransaction } from "../schema/withTransaction.js";
import type { MinedReceipt } from "../src/chains/adapter.js";
import type { ChainAdapters } from "../src/chains/chainAdapters.js";
import type { ChainRegistry } from "../src/chains/chainRegistry.js";
import { creditEarnedAppFees } from "./creditEarnedAppFees.js";

export type SentFill = { requestId: string; chainId: number; txHash: string };

export type ReceiptConfirmer = {
  /** Follows a sent fill's receipt in the background; the request succeeds as soon as it shows success. */
  watch(fill: SentFill): void;
  /** The request succeeds on a receipt already in hand. */
  confirm(fill: SentFill): Promise<void>;
  close(): Promise<void>;
};

/**
 * `success` on the solver's own fill receipt, without waiting for the indexer (families whose adapter reads receipts:
 * EVM; the others keep waiting for their indexer). The receipt's Fill event is recorded with it as a provisional
 * applied fill (schema/receiptFills.ts), so fills, outTxs, fill times and app fees show it at once; the indexed fill
 * confirms it later (reconcile), and `checkReceiptFills` looks after one the indexer never confirms. A reverted or missing receipt changes nothing here: the fill job's follow-up (the
 * stale-submitted recheck) fails and refunds it, and the indexer's row still ends it when the watch gave up.
 */
export function createReceiptConfirmer(deps: {
  pool: pg.Pool;
  adapters: ChainAdapters;
  /** For the app fees the fill earns. */
  registry: ChainRegistry;
  logger: Logger;
  /** How long a watch asks for the receipt, in destination blocks (at least 10 s). */
  watchBlocks?: number;
}): ReceiptConfirmer {
  const controller = new AbortController();
  const watches = new Set<Promise<void>>();
  // The hash as its family writes it (EVM: lower case); never lowercased here, as a base58 signature is case-sensitive.
  const canonicalTxHash = (fill: SentFill) => {
    const chain = deps.registry.chain(fill.chainId);
    return (chain && deps.registry.family(chain).codecOf(chain).parseTransactionHash(fill.txHash)) ?? fill.txHash;
  };
  /** `success` and the receipt's fill as a provisional fact, with the app fees it earns, in one transaction. */
  const succeed = async (fill: SentFill, receipt: MinedReceipt) => {
    // Request ids are ours, 0x and hex in any family: receipts name them in lower case.
    const facts = (receipt.fills ?? []).filter((event) => event.requestId === fill.requestId.toLowerCase());
    // A succeeded transaction that filled nothing of this request is no fill (the indexer decides instead).
    if (receipt.fills && facts.length === 0) {
      deps.logger.warn({ ...fill }, "fill receipt shows no Fill of the request; leaving it to the indexer");
      return;
    }
    const result = await withTransaction(deps.pool, async (db) => {
      const moved = await transitionRequest(db, {
        requestId: fill.requestId,
        from: ["pending", "submitted"],
        to: "success",
        details: { fillTxHash: fill.txHash, confirmedBy: "receipt" },
      });
      // Already a success: the same fill mined again after a reorg moves to its new block (recordReceiptFill).
      if (!moved.applied && moved.current !== "success") return moved;
      for (const fact of facts) {
        await recordReceiptFill(db, {
          chainId: fill.chainId,
          txHash: canonicalTxHash(fill),
          position: fact.position,
          requestId: fill.requestId,
          currency: fact.currency,
          recipient: fact.recipient,
          amount: fact.amount,
          blockNumber: receipt.blockNumber,
          blockHash: receipt.blockHash ?? "",
          timestamp: receipt.timestamp ?? 0n,
          txFee: receipt.fee ?? null,
        });
      }
      if (moved.applied && facts.length > 0) await creditEarnedAppFees(db, fill.requestId, deps.registry);
      return moved;
    });
    if (result.applied) deps.logger.info({ requestId: fill.requestId, txHash: fill.txHash }, "fill receipt: success");
  };
  const confirm = async (fill: SentFill) => {
    const adapter = deps.adapters.solver(fill.chainId);
    if (!adapter.waitForReceipt) return;
    // Mined already: one read of its receipt (and block) for the fill's place.
    const receipt = await adapter.waitForReceipt(fill.txHash, { timeoutMs: 5_000, signal: controller.signal });
    if (receipt?.succeeded) await succeed(fill, receipt);
  };
  return {
    confirm,
    watch(fill) {
      const adapter = deps.adapters.solver(fill.chainId);
      if (!adapter.waitForReceipt) return;
      const timeoutMs = Math.max(10_000, (deps.watchBlocks ?? 5) * adapter.chain.blockTimeSeconds * 1000);
      const watch = adapter
        .waitForReceipt(fill.txHash, { timeoutMs, signal: controller.signal })
        .then(async (receipt) => {
          if (receipt?.succeeded && !controller.signal.aborted) await succeed(fill, receipt);
        })
        .catch((error) => deps.logger.warn({ err: error, ...fill }, "following the fill receipt failed"))
        .finally(() => watches.delete(watch));
      watches.add(watch);
    },
    async close() {
      controller.abort();
      await Promise.all(watches);
    },
  };
}
