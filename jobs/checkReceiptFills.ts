import type pg from "pg";
import type { Logger } from "pino";
import { getFillAttempt } from "../schema/fillAttempts.js";
import { getRequest } from "../schema/requests.js";
import { withTransaction } from "../schema/withTransaction.js";
import {
  type UnindexedFill,
  findReceiptFillsNotIndexed,
  markFillDisagreement,
  recordReceiptFill,
} from "../schema/receiptFills.js";
import type { ChainAdapters } from "../src/chains/chainAdapters.js";
import type { ReceiptConfirmer } from "./createReceiptConfirmer.js";

export type ReceiptFillCheckDeps = {
  pool: pg.Pool;
  onchainSchema: string;
  adapters: ChainAdapters;
  receipts: Pick<ReceiptConfirmer, "watch">;
  logger: Logger;
  /** How many of its chain's blocks a receipt's fill may go unindexed before it is noted as a disagreement. */
  notIndexedBlocks?: number;
  /** How long after it was recorded a receipt's fill is still checked (reorgs deeper than that are not followed). */
  withinMs?: number;
  now?: () => number;
};

const reasonOf = (fill: { disagreement: Record<string, unknown> | null }) => fill.disagreement?.reason;

/**
 * Looks after the fills requests succeeded on (from the solver's receipt or the index, whichever came first) that
 * the indexer does not show, now or any more. The node is asked for the receipt again:
 * - gone (its block was reorged out, and the node dropped the transaction): the fill is noted as reorged out
 *   (provisional again) and the solver's stored signed transaction — the same nonce — is sent again and followed, so
 *   the fill it records moves to the block that mines it. Never a second fill: only that signed transaction (or a
 *   re-priced version of its nonce) can be mined, and the Receiver refuses a second fill of one request id.
 * - in another block (the node mined it again): the fill moves there;
 * - in its block, unindexed for `notIndexedBlocks`: noted as not indexed (the indexer is behind or missed it).
 * The request stays `success` throughout: the fill it succeeded on is being put back on the chain, not undone.
 * Returns how many fills it acted on.
 */
export async function checkReceiptFills(deps: ReceiptFillCheckDeps): Promise<number> {
  const { pool, logger } = deps;
  const now = deps.now ?? Date.now;
  const fills = await findReceiptFillsNotIndexed(pool, deps.onchainSchema, {
    olderThanMs: 0,
    withinMs: deps.withinMs ?? 10 * 60_000,
  });
  // The request's lock first, as every writer of its fills takes it (a fill row's trigger updates the request).
  const lockedByRequest = <T>(fill: UnindexedFill, work: (db: pg.PoolClient) => Promise<T>) =>
    withTransaction(pool, async (db) => {
      await getRequest(db, fill.requestId, { forUpdate: true });
      return work(db);
    });
  let acted = 0;
  for (const fill of fills) {
    try {
      if (await checkOne(fill)) acted += 1;
    } catch (error) {
      // one chain's node failing does not hold up the others; the next pass asks again
      logger.warn({ err: error, requestId: fill.requestId, txHash: fill.txHash }, "checking a receipt's fill failed");
    }
  }
  return acted;

  async function checkOne(fill: UnindexedFill): Promise<boolean> {
    const adapter = deps.adapters.solverOf(fill.chainId);
    if (!adapter?.readReceipt) return false;
    const blockMs = adapter.chain.blockTimeSeconds * 1000;
    // A block for the indexer to catch up before anything is asked of the node.
    if (now() - fill.recordedAt < blockMs) return false;
    const receipt = await adapter.readReceipt(fill.txHash);
    if (!receipt) {
      const attempt = await getFillAttempt(pool, fill.requestId);
      if (reasonOf(fill) !== "fill reorged out") {
        await lockedByRequest(fill, (db) =>
          markFillDisagreement(db, fill, {
            reason: "fill reorged out",
            detectedAt: now(),
            blockNumber: fill.blockNumber.toString(),
            blockHash: fill.blockHash,
            action: attempt ? "re-sent" : "none",
          }),
        );
        logger.warn(
          { requestId: fill.requestId, txHash: fill.txHash, blockNumber: fill.blockNumber.toString() },
          "the fill a request succeeded on was reorged out; sending the same signed transaction again",
        );
      }
      if (attempt) {
        // Every pass until it is mined again; the node may have put it back in its mempool itself, and one it
        // already has counts as sent. Followed from the first detection (later passes find it mined elsewhere).
        await adapter.broadcast({ rawTx: attempt.rawTx, txHash: attempt.txHash });
        if (reasonOf(fill) !== "fill reorged out")
          deps.receipts.watch({ requestId: fill.requestId, chainId: fill.chainId, txHash: attempt.txHash });
      }
      return true;
    }
    if (!receipt.succeeded) {
      if (reasonOf(fill) === "fill reverted when mined again") return false;
      await lockedByRequest(fill, (db) =>
        markFillDisagreement(db, fill, {
          reason: "fill reverted when mined again",
          detectedAt: now(),
          blockNumber: receipt.blockNumber.toString(),
        }),
      );
      logger.error({ requestId: fill.requestId, txHash: fill.txHash }, "a re-mined fill reverted");
      return true;
    }
    if (receipt.blockHash && receipt.blockHash !== fill.blockHash) {
      const event = receipt.fills?.find((found) => found.position === fill.position);
      if (!event) return false;
      // A confirmed fill whose block changed must be confirmed anew: provisional again, then moved.
      const blockHash = receipt.blockHash;
      await lockedByRequest(fill, async (db) => {
        if (!fill.provisional)
          await markFillDisagreement(db, fill, {
            reason: "fill moved to another block",
            detectedAt: now(),
            blockNumber: fill.blockNumber.toString(),
            blockHash: fill.blockHash,
          });
        await recordReceiptFill(db, {
          chainId: fill.chainId,
          txHash: fill.txHash,
          position: fill.position,
          requestId: fill.requestId,
          currency: event.currency,
          recipient: event.recipient,
          amount: event.amount,
          blockNumber: receipt.blockNumber,
          blockHash,
          timestamp: receipt.timestamp ?? 0n,
          txFee: receipt.fee ?? null,
        });
      });
      return true;
    }
    const notIndexedMs = (deps.notIndexedBlocks ?? 5) * blockMs;
    if (now() - fill.recordedAt >= notIndexedMs && fill.provisional && !reasonOf(fill)) {
      await lockedByRequest(fill, (db) =>
        markFillDisagreement(db, fill, {
          reason: "not indexed",
          detectedAt: now(),
          blocks: deps.notIndexedBlocks ?? 5,
        }),
      );
      logger.warn(
        { requestId: fill.requestId, txHash: fill.txHash },
        "the indexer has not recorded the fill a request succeeded on",
      );
      return true;
    }
    return false;
  }
}
