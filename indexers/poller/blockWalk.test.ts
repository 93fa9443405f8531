import { describe, expect, it } from "vitest";
import { FakePollerSource } from "../../test/support/fakePollerSource.js";
import { blockWalk } from "./blockWalk.js";

const signal = new AbortController().signal;
const deposit = (orderId: string) => ({
  txHash: `Tx${orderId}`,
  position: 0,
  orderId,
  depositor: "Depositor",
  currency: "Native",
  amount: 5n,
  txFrom: "Depositor",
  txFee: null,
});

describe("blockWalk", () => {
  it("reads pages of linked blocks up to head − confirmations + 1, each block a cursor, its facts stamped with it", async () => {
    const chain = new FakePollerSource();
    for (let height = 0; height < 6; height++) chain.mine(height === 2 ? { deposits: [deposit("A")] } : {});
    const walk = blockWalk(chain, { startHeight: 1, confirmations: 2, batchBlocks: 3 });
    const first = await walk.read(undefined, signal);
    const cursorOf = (height: number) => ({
      position: height,
      key: chain.blocks[height]!.hash,
      blockHash: chain.blocks[height]!.hash,
    });
    expect(first).toEqual({
      facts: {
        deposits: [
          {
            ...deposit("A"),
            blockNumber: 2n,
            blockHash: chain.blocks[2]!.hash,
            timestamp: BigInt(chain.blocks[2]!.timestamp),
          },
        ],
        fills: [],
        withdrawals: [],
      },
      cursor: cursorOf(3),
      passed: [cursorOf(1), cursorOf(2)],
      head: 5,
      more: true,
    });
    const second = await walk.read(cursorOf(3), signal);
    expect(second).toMatchObject({ cursor: cursorOf(4), passed: [], head: 5, more: false });
    // Block 5 waits for its second confirmation: nothing new, the cursor stays.
    expect(await walk.read(cursorOf(4), signal)).toMatchObject({ cursor: cursorOf(4), more: false });
  });

  it("answers reorged when the next block or, with nothing new, the cursor's own block is not the cursor's", async () => {
    const chain = new FakePollerSource();
    for (let height = 0; height < 4; height++) chain.mine();
    const walk = blockWalk(chain, { startHeight: 0 });
    const stale = { position: 2, key: chain.blocks[2]!.hash };
    chain.orphanFrom(2);
    chain.mine();
    expect(await walk.read(stale, signal)).toEqual({ reorged: true, head: 2 });
    chain.mine();
    expect(await walk.read(stale, signal)).toEqual({ reorged: true, head: 3 });
    expect(await walk.onChain(stale)).toBe(false);
    expect(await walk.onChain({ position: 1, key: chain.blocks[1]!.hash })).toBe(true);
  });

  it("stops between blocks once the signal aborts, with the blocks read so far", async () => {
    const chain = new FakePollerSource();
    for (let height = 0; height < 5; height++) chain.mine();
    let release!: () => void;
    chain.gate = new Promise((resolve) => (release = resolve));
    const stop = new AbortController();
    const walk = blockWalk(chain, { startHeight: 0 });
    const reading = walk.read(undefined, stop.signal);
    while (!chain.calls.includes("block 0")) await new Promise((resolve) => setTimeout(resolve, 1));
    stop.abort();
    release();
    expect(await reading).toMatchObject({ cursor: { position: 0 }, passed: [], more: true });
  });
});
