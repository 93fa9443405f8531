import type { DepositFact, FillFact, WithdrawalFact } from "../../schema/chainFacts.js";
import type { PollerCursor, PollerSource, PolledFacts, SourcePage } from "./pollerSource.js";

/** A block as a block source knows it: its height on its chain and its hash (in the chain's own encoding). */
export type BlockRef = { height: number; hash: string };

/** A fact as a block source reads it from its block; the walk adds the block's number, hash and time. */
export type InBlock<Fact> = Omit<Fact, "chainId" | "blockNumber" | "blockHash" | "timestamp">;

/** One block of the chain and the facts of ours it holds, in the chain's own encodings (never lowercased). */
export type SourceBlock = BlockRef & {
  /** The hash of the block at `height − 1` this one builds on: how a reorg between two reads is noticed. */
  parentHash: string;
  /** Block time, seconds. */
  timestamp: number;
  deposits: InBlock<DepositFact>[];
  fills: InBlock<FillFact>[];
  withdrawals: InBlock<WithdrawalFact>[];
};

/**
 * A chain read block by block (Bitcoin's Esplora): heights are the chain's own block sequence, without gaps, every
 * height up to the head has one block. A call that fails throws; a call should time out on its own.
 */
export interface BlockSource {
  /** The newest block the source knows. */
  head(): Promise<BlockRef>;
  /** The hash of the block at `height` on the source's current chain; undefined above its head. */
  blockHash(height: number): Promise<string | undefined>;
  /** The block at `height` on the source's current chain, with its facts. */
  block(height: number): Promise<SourceBlock>;
  mempoolDeposits?: PollerSource["mempoolDeposits"];
}

export type BlockWalkOptions = {
  /** Where a chain never polled starts (the depository's first block); a chain with a cursor goes on from it. */
  startHeight: number;
  /**
   * Blocks a block needs, itself included, before it is read; default 1: the head, as Ponder records in real time.
   * The jobs apply the value-tiered confirmations either way, to facts from any indexer.
   */
  confirmations?: number;
  /** Blocks read per page (written in one transaction); default 20. */
  batchBlocks?: number;
};

/** A block's cursor: its height, its hash. */
const blockCursor = (block: BlockRef): PollerCursor => ({
  position: block.height,
  key: block.hash,
  blockHash: block.hash,
});

/** A block cursor's height: a block walk's heights are safe integers (Bitcoin's), never a bigint position. */
function heightOf(cursor: PollerCursor): number {
  if (typeof cursor.position !== "number") throw new RangeError(`block height ${cursor.position} is past 2^53`);
  return cursor.position;
}

/**
 * The block walk: a block source read as pages of blocks. Each read goes from the block after the cursor up to the head
 * less `confirmations − 1`, at most `batchBlocks` blocks, each of which must build on the one before (the cursor's
 * block first); a first block that does not, or a cursor's block replaced while nothing new was mined, is a reorg
 * (`reorged`), which the loop walks back through `onChain`. A block built on another while reading ends the page with
 * the blocks linked so far: the next read finds the reorg. Every block passed is a cursor the loop keeps.
 */
export function blockWalk(
  source: BlockSource,
  options: BlockWalkOptions,
): Required<Pick<PollerSource, "onChain">> & PollerSource {
  const confirmations = options.confirmations ?? 1;
  const batchBlocks = options.batchBlocks ?? 20;
  return {
    async read(after, signal): Promise<SourcePage> {
      const head = await source.head();
      const target = head.height - confirmations + 1;
      const from = after ? heightOf(after) + 1 : options.startHeight;
      const none: PolledFacts = { deposits: [], fills: [], withdrawals: [] };
      if (from > target) {
        // Nothing new to read: the cursor's block may still have been replaced.
        if (after && (await source.blockHash(heightOf(after))) !== after.key)
          return { reorged: true, head: head.height };
        return { facts: none, cursor: after, head: head.height, more: false };
      }
      const to = Math.min(target, from + batchBlocks - 1);
      const blocks: SourceBlock[] = [];
      for (let height = from; height <= to && !signal.aborted; height++) {
        const block = await source.block(height);
        if (block.height !== height) throw new Error(`asked for block ${height}, got ${block.height}`);
        const parentHash = blocks.at(-1)?.hash ?? after?.key;
        if (parentHash !== undefined && block.parentHash !== parentHash) {
          if (blocks.length > 0) break; // the chain changed during this read: the next one finds the reorg
          return { reorged: true, head: head.height };
        }
        blocks.push(block);
      }
      if (blocks.length === 0) return { facts: none, cursor: after, head: head.height, more: false };
      const stamped = <Fact>(pick: (block: SourceBlock) => Fact[]) =>
        blocks.flatMap((block) =>
          pick(block).map((fact) => ({
            ...fact,
            blockNumber: BigInt(block.height),
            blockHash: block.hash,
            timestamp: BigInt(block.timestamp),
          })),
        );
      const cursors = blocks.map(blockCursor);
      return {
        facts: {
          deposits: stamped((block) => block.deposits),
          fills: stamped((block) => block.fills),
          withdrawals: stamped((block) => block.withdrawals),
        },
        cursor: cursors.at(-1),
        passed: cursors.slice(0, -1),
        head: head.height,
        more: blocks.at(-1)!.height < target,
      };
    },
    onChain: async (cursor) => (await source.blockHash(heightOf(cursor))) === cursor.key,
    ...(source.mempoolDeposits && { mempoolDeposits: () => source.mempoolDeposits!() }),
  };
}
