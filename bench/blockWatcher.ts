import { createPublicClient, webSocket } from "viem";
import { wallClockMs } from "./wallClock.js";

export type SeenBlock = { seenAtMs: number; timestampS: number };

export type BlockWatcher = {
  /** When this process first saw each block (wall clock, ms) and the block's own timestamp (whole seconds). */
  blocks: Map<bigint, SeenBlock>;
  stop(): void;
};

/**
 * Records the local wall-clock time at which each new block of a chain is announced over its websocket
 * (`eth_subscribe newHeads`): the moment a block is mined, to the resolution this machine can observe
 * (block timestamps are whole seconds, useless for sub-second latencies).
 */
export async function watchChainBlocks(wsUrl: string): Promise<BlockWatcher> {
  const client = createPublicClient({ transport: webSocket(wsUrl) });
  const blocks = new Map<bigint, SeenBlock>();
  let failure: Error | undefined;
  let resolveFirst: () => void;
  const first = new Promise<void>((resolve) => (resolveFirst = resolve));
  const unwatch = client.watchBlocks({
    onBlock: (block) => {
      const seenAtMs = wallClockMs();
      if (block.number !== null && !blocks.has(block.number))
        blocks.set(block.number, { seenAtMs, timestampS: Number(block.timestamp) });
      resolveFirst();
    },
    onError: (error) => {
      failure = error;
    },
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      first,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(failure ?? new Error(`no block announced on ${wsUrl} within 5 s`)), 5_000);
      }),
    ]);
  } catch (error) {
    unwatch();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return {
    blocks,
    stop() {
      unwatch();
      void client.transport.getRpcClient().then((rpc) => rpc.close());
    },
  };
}
