import type { BlockRef, BlockSource, SourceBlock } from "../../indexers/poller/blockWalk.js";

type Facts = Partial<Pick<SourceBlock, "deposits" | "fills" | "withdrawals">>;

/**
 * A chain in memory behind the poller's source interface, for tests: blocks are mined and reorged by hand, every
 * call is logged, and calls can be made to fail or to wait. Hashes are mixed-case, as base58 ones are.
 */
export class FakePollerSource implements BlockSource {
  readonly blocks: SourceBlock[] = [];
  /** `head`, `hash <height>`, `block <height>`, in call order. */
  readonly calls: string[] = [];
  /** head() throws these, one a call, first first. */
  readonly headFailures: Error[] = [];
  /** While set, block() waits for it before answering. */
  gate: Promise<void> | undefined;
  private serial = 0;

  /** Appends a block holding `facts`; returns it. */
  mine(facts: Facts = {}): SourceBlock {
    const height = this.blocks.length;
    this.serial += 1;
    const block: SourceBlock = {
      height,
      hash: `Blk${height}x${this.serial}Qz`,
      parentHash: this.blocks.at(-1)?.hash ?? "Genesis",
      timestamp: 1_700_000_000 + height * 600,
      deposits: facts.deposits ?? [],
      fills: facts.fills ?? [],
      withdrawals: facts.withdrawals ?? [],
    };
    this.blocks.push(block);
    return block;
  }

  /** Drops the blocks from `height` up: the next ones mined replace them (a reorg once the chain is longer). */
  orphanFrom(height: number): void {
    this.blocks.length = height;
  }

  async head(): Promise<BlockRef> {
    this.calls.push("head");
    const failure = this.headFailures.shift();
    if (failure) throw failure;
    const tip = this.blocks.at(-1)!;
    return { height: tip.height, hash: tip.hash };
  }

  async blockHash(height: number): Promise<string | undefined> {
    this.calls.push(`hash ${height}`);
    return this.blocks[height]?.hash;
  }

  async block(height: number): Promise<SourceBlock> {
    this.calls.push(`block ${height}`);
    await this.gate;
    const block = this.blocks[height];
    if (!block) throw new Error(`no block ${height}`);
    return block;
  }
}
