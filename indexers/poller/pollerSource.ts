import type { DepositFact, FillFact, WithdrawalFact } from "../../schema/chainFacts.js";
import type { BlockRef } from "../../schema/pollerBlocks.js";

export type { BlockRef };

/** A fact as a source reads it from its block; the loop adds the chain id and the block's number, hash and time. */
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
 * What a chain family gives the poller loop (indexers/poller/startPoller.ts). Heights are the chain's own block
 * sequence, without gaps: every height up to the head has one block. A call that fails throws (the loop backs off and
 * retries); a call should time out on its own, since stopping the poller waits for the call under way.
 */
export interface PollerSource {
  /** The newest block the source knows. */
  head(): Promise<BlockRef>;
  /** The hash of the block at `height` on the source's current chain; undefined above its head. */
  blockHash(height: number): Promise<string | undefined>;
  /** The block at `height` on the source's current chain, with its facts. */
  block(height: number): Promise<SourceBlock>;
  /**
   * Deposits waiting in the mempool now, for chains whose requests go `pending` before a block (Bitcoin); a
   * source without a mempool leaves it out.
   */
  mempoolDeposits?(): Promise<InBlock<DepositFact>[]>;
}
