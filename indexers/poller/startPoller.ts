import type pg from "pg";
import type { Logger } from "pino";
import {
  MEMPOOL_BLOCK_HASH,
  POLLER_SOURCE,
  deletePolledFactsAbove,
  dropMempoolDepositFacts,
  insertDepositFacts,
  insertFillFacts,
  insertWithdrawalFacts,
  replaceMempoolDepositFacts,
} from "../../schema/chainFacts.js";
import {
  type BlockRef,
  recentPollerBlocks,
  recordPollerBlocks,
  rewindPollerBlocks,
} from "../../schema/pollerBlocks.js";
import { withTransaction } from "../../schema/withTransaction.js";
import { backoffDelay } from "../../src/runtime/backoffDelay.js";
import { repeatEvery } from "../../src/runtime/repeatEvery.js";
import type { PollerSource, SourceBlock } from "./pollerSource.js";

export type StartPollerOptions = {
  pool: pg.Pool;
  source: PollerSource;
  chainId: number;
  /** Where a chain never polled starts (the depository's first block); a chain with a cursor goes on from it. */
  startHeight: number;
  /**
   * Blocks a block needs, itself included, before it is read; default 1: the head, as Ponder records in real time.
   * The jobs apply the value-tiered confirmations either way, to facts from any indexer.
   */
  confirmations?: number;
  /** The wait between passes once the poller has reached the head; default 5 s. */
  pollEveryMs?: number;
  /** Blocks read per pass and written in one transaction; default 20. */
  batchBlocks?: number;
  /** Blocks kept to walk back a reorg; a deeper reorg fails every pass until an operator steps in. Default 100. */
  maxReorgDepth?: number;
  /** The wait after the n-th failed pass in a row; default exponential from 1 s, capped at 1 min, with jitter. */
  retryDelay?: (failures: number) => number;
  logger: Logger;
};

export type PollerHealth = {
  chainId: number;
  /** The source's head at the last pass that read it; null before. */
  head: number | null;
  /** The last block recorded; null before the first. */
  cursor: number | null;
  /** head − cursor: blocks not recorded yet, those waiting for confirmations included; null until both are known. */
  lag: number | null;
  lastSuccessAt: Date | null;
  /** The last failed pass, kept after a success (compare its time with lastSuccessAt). */
  lastError: { message: string; at: Date } | null;
};

export type Poller = {
  /** Resolves once the pass under way has ended; no pass starts after it is called. */
  stop(): Promise<void>;
  health(): PollerHealth;
};

/**
 * Polls a chain through its source and records its blocks' facts, as the EVM indexer does through Ponder: one loop
 * for every chain family. Each pass reads the blocks after the cursor up to the head less `confirmations − 1`, and
 * writes their facts and the new cursor in one transaction (a crash leaves both or neither; facts are keyed, so a
 * replay changes nothing). A block whose parent is not the cursor, or a cursor no longer on the chain, is a reorg:
 * the loop walks back to the newest block it kept that the chain still has and deletes the facts above it.
 * Failed passes back off; stop() waits for the pass under way. Run one poller per chain.
 */
export function startPoller(options: StartPollerOptions): Poller {
  const { pool, source, chainId, logger } = options;
  const confirmations = options.confirmations ?? 1;
  const pollEveryMs = options.pollEveryMs ?? 5_000;
  const batchBlocks = options.batchBlocks ?? 20;
  const maxReorgDepth = options.maxReorgDepth ?? 100;
  const health: PollerHealth = { chainId, head: null, cursor: null, lag: null, lastSuccessAt: null, lastError: null };
  let stopping = false;

  const observe = (head: number | null, cursor: number | null) => {
    health.head = head;
    health.cursor = cursor;
    health.lag = head !== null && cursor !== null ? head - cursor : null;
  };

  /** Deletes what was recorded above the newest kept block the chain still has; returns that block's height. */
  const rewind = async (): Promise<number> => {
    const kept = await recentPollerBlocks(pool, chainId);
    for (const ancestor of kept) {
      if ((await source.blockHash(ancestor.height)) !== ancestor.hash) continue;
      await withTransaction(pool, async (client) => {
        await deletePolledFactsAbove(client, chainId, ancestor.height);
        await rewindPollerBlocks(client, chainId, ancestor.height);
      });
      logger.warn(
        { chainId, cursor: kept[0]!.height, ancestor: ancestor.height },
        "poller: reorg, orphaned facts deleted",
      );
      return ancestor.height;
    }
    throw new Error(`chain ${chainId}: reorg deeper than the ${kept.length} blocks kept (maxReorgDepth)`);
  };

  const record = async (client: pg.PoolClient, blocks: SourceBlock[]) => {
    const stamped = <Fact>(pick: (block: SourceBlock) => Fact[]) =>
      blocks.flatMap((block) =>
        pick(block).map((fact) => ({
          ...fact,
          chainId,
          blockNumber: BigInt(block.height),
          blockHash: block.hash,
          timestamp: BigInt(block.timestamp),
        })),
      );
    const deposits = stamped((block) => block.deposits);
    await dropMempoolDepositFacts(
      client,
      chainId,
      deposits.map((deposit) => deposit.txHash),
    );
    await insertDepositFacts(client, deposits, POLLER_SOURCE);
    await insertFillFacts(
      client,
      stamped((block) => block.fills),
    );
    await insertWithdrawalFacts(
      client,
      stamped((block) => block.withdrawals),
    );
    await recordPollerBlocks(client, chainId, blocks, maxReorgDepth);
  };

  /** One pass; true when more blocks are ready to read. */
  const advance = async (): Promise<boolean> => {
    const [cursor] = await recentPollerBlocks(pool, chainId, 1);
    const head = await source.head();
    observe(head.height, cursor?.height ?? null);
    const target = head.height - confirmations + 1;
    const from = cursor ? cursor.height + 1 : options.startHeight;
    if (from > target) {
      // Nothing new to read: the cursor's block may still have been replaced.
      if (cursor && (await source.blockHash(cursor.height)) !== cursor.hash) {
        observe(head.height, await rewind());
        return true;
      }
      return false;
    }
    const to = Math.min(target, from + batchBlocks - 1);
    const blocks: SourceBlock[] = [];
    for (let height = from; height <= to && !stopping; height++) {
      const block = await source.block(height);
      if (block.height !== height) throw new Error(`chain ${chainId}: asked for block ${height}, got ${block.height}`);
      const parent = blocks.at(-1) ?? cursor;
      if (parent && block.parentHash !== parent.hash) {
        if (blocks.length > 0) break; // the chain changed during this pass: record what is linked, the next pass rewinds
        observe(head.height, await rewind());
        return true;
      }
      blocks.push(block);
    }
    if (blocks.length === 0) return false;
    await withTransaction(pool, (client) => record(client, blocks));
    const last = blocks.at(-1)!.height;
    observe(head.height, last);
    return last < target;
  };

  /** Records what waits in the mempool, once the blocks are read (a deposit mined meanwhile is in neither). */
  const recordMempool = async () => {
    if (!source.mempoolDeposits || stopping) return;
    const seen = await source.mempoolDeposits();
    const firstSeen = BigInt(Math.floor(Date.now() / 1000));
    const facts = seen.map((fact) => ({
      ...fact,
      chainId,
      blockNumber: 0n,
      blockHash: MEMPOOL_BLOCK_HASH,
      timestamp: firstSeen,
    }));
    await withTransaction(pool, (client) => replaceMempoolDepositFacts(client, chainId, facts));
  };

  const loop = repeatEvery(
    pollEveryMs,
    async () => {
      try {
        const more = await advance();
        if (!more) await recordMempool();
        health.lastSuccessAt = new Date();
        return more ? 0 : undefined;
      } catch (error) {
        health.lastError = { message: error instanceof Error ? error.message : String(error), at: new Date() };
        throw error;
      }
    },
    (error) => logger.warn({ err: error, chainId }, "poller pass failed"),
    {
      firstAfterMs: 0,
      retryDelay: options.retryDelay ?? ((failures) => backoffDelay(failures, { baseMs: 1_000, maxMs: 60_000 })),
    },
  );

  return {
    async stop() {
      stopping = true;
      await loop.close();
    },
    health: () => ({ ...health }),
  };
}
