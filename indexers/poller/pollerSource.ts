import type { DepositFact, FillFact, WithdrawalFact } from "../../schema/chainFacts.js";
import type { PollerCursor } from "../../schema/pollerCursors.js";
import type { FactPosition } from "../../src/domain/factPosition.js";

export type { PollerCursor };

/** A fact as a source reads it, in the chain's own encodings (never lowercased); the loop adds the chain id. */
export type Polled<Fact> = Omit<Fact, "chainId">;

/** The facts of ours one page holds. */
export type PolledFacts = {
  deposits: Polled<DepositFact>[];
  fills: Polled<FillFact>[];
  withdrawals: Polled<WithdrawalFact>[];
};

/** What one read gives: the facts after the cursor it was given, and where the next read goes on from. */
export type SourcePage =
  | {
      facts: PolledFacts;
      /** Where the next read goes on from: the cursor read from when nothing new was read (undefined before any). */
      cursor: PollerCursor | undefined;
      /**
       * Cursors passed before `cursor`, oldest first, kept with it for the reorg check (a block walk passes one a
       * block, so a reorg is walked back to the newest block the chain still has); none for a source without one.
       */
      passed?: readonly PollerCursor[];
      /** The source's newest position (a block height, a slot, an lt, a time), for the poller's health. */
      head: FactPosition;
      /** More is ready to read now: the loop reads again without waiting. */
      more: boolean;
    }
  | {
      /** The cursor read from is no longer on the source's chain: nothing was read; the loop walks back (`onChain`). */
      reorged: true;
      head: FactPosition;
    };

/**
 * What a chain family gives the poller loop (indexers/poller/startPoller.ts): pages of facts after a cursor, in the
 * chain's own order, whatever that order is (blocks, slots with gaps, an account's (lt, hash) chain, a ledger's time).
 * The loop stores each page's facts with its cursor in one transaction and reads on from that cursor after a restart.
 * Positions (a cursor's, the head) may pass 2^53 (a TON lt): a source gives them as bigints then, and the loop reads them
 * in their canonical form (`factPosition`). A call that fails throws (the loop backs off and retries); a call should time out on its own, since stopping the
 * poller waits for the call under way. `signal` aborts when the poller stops: a long read may end early with what it
 * has read.
 */
export interface PollerSource {
  read(after: PollerCursor | undefined, signal: AbortSignal): Promise<SourcePage>;
  /**
   * The reorg check, for chains whose history can change: whether a cursor kept earlier is still on the source's
   * chain. After a `reorged` page the loop asks it of its kept cursors, newest first, and deletes the facts above the
   * first still there (facts whose `blockNumber` is above its position). A source whose pages never change once read
   * (a finalized ledger) leaves it out, and the loop keeps only its newest cursor.
   */
  onChain?(cursor: PollerCursor): Promise<boolean>;
  /**
   * Deposits waiting in the mempool now, for chains whose requests go `pending` before a block (Bitcoin); a
   * source without a mempool leaves it out.
   */
  mempoolDeposits?(): Promise<Omit<Polled<DepositFact>, "blockNumber" | "blockHash" | "timestamp">[]>;
}
