import { fakeChainAdapters } from "../test/support/fakeChainAdapters.js";
import { randomBytes } from "node:crypto";
import pino from "pino";
import { beforeAll, describe, expect, it } from "vitest";
import { insertFillAttempt } from "../schema/fillAttempts.js";
import type { FillFact } from "../schema/chainFacts.js";
import { recordReceiptFill } from "../schema/receiptFills.js";
import { fillsOfRequests } from "../schema/requestChainFacts.js";
import type { MinedReceipt } from "../src/chains/adapter.js";
import { insertTestRequest } from "../test/support/insertTestRequest.js";
import { ONCHAIN_FIXTURE, insertIndexedFill } from "../test/support/onchainFixture.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { checkReceiptFills } from "./checkReceiptFills.js";
import type { SentFill } from "./createReceiptConfirmer.js";

const hash = () => `0x${randomBytes(32).toString("hex")}`;

/** A destination chain whose node answers receipts from `receipts` (absent: not found; an Error: thrown). */
function fakeChain() {
  const receipts = new Map<string, MinedReceipt | Error>();
  const broadcasts: string[] = [];
  const watched: SentFill[] = [];
  const adapter = {
    chain: { blockTimeSeconds: 1 },
    readReceipt: async (txHash: string) => {
      const receipt = receipts.get(txHash);
      if (receipt instanceof Error) throw receipt;
      return receipt ?? null;
    },
    broadcast: async (signed: { rawTx: string; txHash: string }) => void broadcasts.push(signed.rawTx),
  };
  const adapters = fakeChainAdapters((chainId) => (chainId === 31339 ? adapter : undefined));
  return { receipts, broadcasts, watched, adapters, receiptsWatch: { watch: (fill: SentFill) => watched.push(fill) } };
}

describe("checkReceiptFills", () => {
  const db = useMigratedDatabase();
  beforeAll(async () => {
    await db.pool.query(ONCHAIN_FIXTURE);
  });

  /** A request that succeeded on its receipt's fill (block 9), with the solver's stored signed transaction. */
  async function succeededOnReceipt(): Promise<FillFact & { rawTx: string }> {
    const request = await insertTestRequest(db.pool);
    const txHash = hash();
    const rawTx = `0x${randomBytes(8).toString("hex")}`;
    await insertFillAttempt(db.pool, {
      requestId: request.id,
      chainId: 31339,
      solver: "0xsolver",
      nonce: Number.parseInt(randomBytes(3).toString("hex"), 16),
      txHash,
      rawTx,
      currency: "0x0",
      amount: 990n,
      recipient: request.recipient,
    });
    await db.pool.query("UPDATE crossfill.requests SET status = 'success' WHERE id = $1", [request.id]);
    const fact = {
      chainId: 31339,
      txHash,
      position: 1,
      requestId: request.id,
      currency: "0x0",
      recipient: "0xr",
      amount: 990n,
      blockNumber: 9n,
      blockHash: "0xb9",
      timestamp: 1009n,
      txFee: 7n,
    };
    await recordReceiptFill(db.pool, fact);
    return { ...fact, rawTx };
  }
  /** One pass of the check with the clock `after` ms ahead (a fill is looked at a block after it was recorded). */
  const checkWith =
    (chain: ReturnType<typeof fakeChain>, options: { notIndexedBlocks?: number } = {}) =>
    (after: number) =>
      checkReceiptFills({
        pool: db.pool,
        onchainSchema: "onchain_fixture",
        adapters: chain.adapters,
        receipts: chain.receiptsWatch,
        logger: pino({ level: "silent" }),
        now: () => Date.now() + after,
        ...options,
      });
  const fillOf = async (requestId: string) => (await fillsOfRequests(db.pool, [requestId]))[0][0];
  const mined = (blockNumber: bigint, blockHash: string): MinedReceipt => ({
    succeeded: true,
    blockNumber,
    blockHash,
    timestamp: 1000n + blockNumber,
    fee: 7n,
    fills: [{ position: 1, requestId: "", currency: "0x0", recipient: "0xr", amount: 990n }],
  });

  it("sends the same signed transaction again when the fill's receipt is gone, and follows it once", async () => {
    const chain = fakeChain();
    const fill = await succeededOnReceipt();
    const check = checkWith(chain);
    // within a block of being recorded, the indexer is given its time: the node is not asked
    await check(0);
    expect(chain.broadcasts).toEqual([]);
    await check(2_000);
    expect(chain.broadcasts).toEqual([fill.rawTx]);
    expect(chain.watched).toEqual([{ requestId: fill.requestId, chainId: 31339, txHash: fill.txHash }]);
    expect(await fillOf(fill.requestId)).toMatchObject({
      provisional: true,
      disagreement: { reason: "fill reorged out", blockNumber: "9", blockHash: "0xb9", action: "re-sent" },
    });
    // still gone: sent again, but followed once and noted once
    await check(3_000);
    expect(chain.broadcasts).toEqual([fill.rawTx, fill.rawTx]);
    expect(chain.watched).toHaveLength(1);
    // mined again in block 12: the fill moves there; once indexed there it is no longer looked at
    chain.receipts.set(fill.txHash, mined(12n, "0xb12"));
    expect(await check(4_000)).toBe(1);
    expect(await fillOf(fill.requestId)).toMatchObject({
      blockNumber: 12n,
      timestamp: 1012,
      provisional: true,
      disagreement: { reason: "fill reorged out" },
    });
    await insertIndexedFill(db.pool, fill.requestId, fill.txHash, 1);
    expect(await check(5_000)).toBe(0);
    expect(chain.broadcasts).toHaveLength(2);
  });

  it("reopens a confirmed fill that the index no longer shows and the node has in another block", async () => {
    const chain = fakeChain();
    const fill = await succeededOnReceipt();
    await db.pool.query("UPDATE crossfill.request_fills SET provisional = false WHERE tx_hash = $1", [fill.txHash]);
    chain.receipts.set(fill.txHash, mined(10n, "0xb10"));
    await checkWith(chain)(2_000);
    expect(await fillOf(fill.requestId)).toMatchObject({
      blockNumber: 10n,
      provisional: true,
      disagreement: { reason: "fill moved to another block", blockHash: "0xb9" },
    });
    expect(chain.broadcasts).not.toContain(fill.rawTx);
  });

  it("notes a fill still in its block but unindexed after the wait, and goes on past a node that fails", async () => {
    const chain = fakeChain();
    const failing = await succeededOnReceipt();
    const late = await succeededOnReceipt();
    chain.receipts.set(failing.txHash, new Error("socket hang up"));
    chain.receipts.set(late.txHash, mined(9n, "0xb9"));
    const check = checkWith(chain, { notIndexedBlocks: 5 });
    await check(2_000);
    expect((await fillOf(late.requestId)).disagreement).toBeNull();
    await check(6_000);
    expect(await fillOf(late.requestId)).toMatchObject({
      provisional: true,
      disagreement: { reason: "not indexed", blocks: 5 },
    });
    // a node failure is never taken for a reorg: nothing noted, nothing sent
    expect((await fillOf(failing.requestId)).disagreement).toBeNull();
    expect(chain.broadcasts).not.toContain(failing.rawTx);
    expect(chain.broadcasts).not.toContain(late.rawTx);
  });
});
