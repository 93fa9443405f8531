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
import { recentPollerCursors, recordPollerCursors, rewindPollerCursors } from "../../schema/pollerCursors.js";
import { withTransaction } from "../../schema/withTransaction.js";
import { type FactPosition, factPosition } from "../../src/domain/factPosition.js";
import { backoffDelay } from "../../src/runtime/backoffDelay.js";
import { repeatEvery } from "../../src/runtime/repeatEvery.js";
import { type BlockSource, type BlockWalkOptions, blockWalk } from "./blockWalk.js";
import type { PollerCursor, PollerSource, PolledFacts } from "./pollerSource.js";

export type StartPollerOptions = Partial<BlockWalkOptions> & {
  /**
   * The chain's source: cursor pages, or a block source, which the loop reads as a `blockWalk` with the block walk's
   * options (`startHeight` required).
   */
  source: PollerSource | BlockSource;
  pool: pg.Pool;
  chainId: number;
  /** The wait between passes once the poller has reached the head; default 5 s. */
  pollEveryMs?: number;
  /**
   * Positions kept to walk back a reorg (blocks, for a block walk); a deeper reorg fails every pass until an operator
   * steps in. Default 100. A source without a reorg check keeps its newest cursor only.
   */
  maxReorgDepth?: number;
  /** The wait after the n-th failed pass in a row; default exponential from 1 s, capped at 1 min, with jitter. */
  retryDelay?: (failures: number) => number;
  logger: Logger;
};

export type PollerHealth = {
  chainId: number;
  /** The source's head (its newest position) at the last pass that read it; null before. */
  head: FactPosition | null;
  /** The position of the last cursor recorded; null before the first. */
  cursor: FactPosition | null;
  /**
   * head − cursor: positions not recorded yet, those waiting for confirmations included; null until both are known.
   * A count, exact while it is a safe integer.
   */
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

function pagesOf({ source, startHeight, ...walk }: StartPollerOptions): PollerSource {
  if ("read" in source) return source;
  if (startHeight === undefined) throw new Error("a block source needs its startHeight");
  return blockWalk(source, { startHeight, confirmations: walk.confirmations, batchBlocks: walk.batchBlocks });
}

const sameCursor = (a: PollerCursor | undefined, b: PollerCursor | undefined) =>
  a?.position === b?.position && a?.key === b?.key;

/** A source's cursor with its position in the canonical form (a small bigint compared `===` with a number never is). */
const canonical = (cursor: PollerCursor): PollerCursor => ({ ...cursor, position: factPosition(cursor.position) });

/**
 * Polls a chain through its source and records its facts, as the EVM indexer does through Ponder: one loop for every
 * chain family. Each pass reads the page after the stored cursor and writes its facts and its cursor in one
 * transaction (a crash leaves both or neither; facts are keyed, so a replay changes nothing); a restarted poller reads
 * on from the cursor. A page that finds the cursor off the chain is a reorg: the loop walks back to the newest cursor
 * it kept that the chain still has (the source's reorg check) and deletes the facts above it. Failed passes back off;
 * stop() waits for the pass under way. Run one poller per chain.
 */
export function startPoller(options: StartPollerOptions): Poller {
  const { pool, chainId, logger } = options;
  const source = pagesOf(options);
  const pollEveryMs = options.pollEveryMs ?? 5_000;
  const maxReorgDepth = options.maxReorgDepth ?? 100;
  // Without a reorg check there is nothing to walk back to: the newest cursor is all the loop needs.
  const keep = source.onChain ? maxReorgDepth : 1;
  const health: PollerHealth = { chainId, head: null, cursor: null, lag: null, lastSuccessAt: null, lastError: null };
  const stopping = new AbortController();

  const observe = (head: FactPosition | null, cursor: FactPosition | null) => {
    health.head = head === null ? null : factPosition(head);
    health.cursor = cursor;
    health.lag = head !== null && cursor !== null ? Number(BigInt(head) - BigInt(cursor)) : null;
  };

  /** Deletes what was recorded above the newest kept cursor the chain still has; returns that cursor's position. */
  const rewind = async (): Promise<FactPosition> => {
    if (!source.onChain) throw new Error(`chain ${chainId}: the source found a reorg but has no reorg check`);
    const kept = await recentPollerCursors(pool, chainId);
    for (const ancestor of kept) {
      if (!(await source.onChain(ancestor))) continue;
      await withTransaction(pool, async (client) => {
        await deletePolledFactsAbove(client, chainId, ancestor.position);
        await rewindPollerCursors(client, chainId, ancestor.position);
      });
      logger.warn(
        { chainId, cursor: kept[0]!.position, ancestor: ancestor.position },
        "poller: reorg, orphaned facts deleted",
      );
      return ancestor.position;
    }
    throw new Error(`chain ${chainId}: reorg deeper than the ${kept.length} blocks kept (maxReorgDepth)`);
  };

  const record = async (client: pg.PoolClient, facts: PolledFacts, cursors: readonly PollerCursor[]) => {
    const onChain = <Fact>(polled: Fact[]) => polled.map((fact) => ({ ...fact, chainId }));
    const deposits = onChain(facts.deposits);
    await dropMempoolDepositFacts(
      client,
      chainId,
      deposits.map((deposit) => deposit.txHash),
    );
    await insertDepositFacts(client, deposits, POLLER_SOURCE);
    await insertFillFacts(client, onChain(facts.fills));
    await insertWithdrawalFacts(client, onChain(facts.withdrawals));
    await recordPollerCursors(client, chainId, cursors, keep);
  };

  /** One pass; true when more is ready to read. */
  const advance = async (): Promise<boolean> => {
    const [cursor] = await recentPollerCursors(pool, chainId, 1);
    const page = await source.read(cursor, stopping.signal);
    observe(page.head, cursor?.position ?? null);
    if ("reorged" in page) {
      observe(page.head, await rewind());
      return true;
    }
    if (page.cursor === undefined || sameCursor(canonical(page.cursor), cursor)) return false;
    const newCursor = canonical(page.cursor);
    const passed = (page.passed ?? []).map(canonical);
    await withTransaction(pool, (client) => record(client, page.facts, [...passed, newCursor]));
    observe(page.head, newCursor.position);
    return page.more;
  };

  /** Records what waits in the mempool, once the blocks are read (a deposit mined meanwhile is in neither). */
  const recordMempool = async () => {
    if (!source.mempoolDeposits || stopping.signal.aborted) return;
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
      stopping.abort();
      await loop.close();
    },
    health: () => ({ ...health }),
  };
}
