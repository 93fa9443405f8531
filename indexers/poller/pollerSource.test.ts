import pino from "pino";
import { describe, expect, it } from "vitest";
import { useMigratedDatabase } from "../../test/support/useMigratedDatabase.js";
import type { Polled, PolledFacts, PollerCursor, PollerSource, SourcePage } from "./pollerSource.js";
import { startPoller } from "./startPoller.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let waited = 0; !(await condition()); waited += 5) {
    if (waited > 20_000) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

type Deposit = Polled<PolledFacts["deposits"][number]>;
const deposit = (orderId: string, at: { blockNumber: bigint; blockHash: string; txHash: string; position: number }) =>
  ({
    txHash: at.txHash,
    position: at.position,
    orderId,
    depositor: "Depositor",
    currency: "Native",
    amount: 1_000n,
    blockNumber: at.blockNumber,
    blockHash: at.blockHash,
    timestamp: 1_700_000_000n,
    txFrom: "Depositor",
    txFee: null,
  }) satisfies Deposit;
const page = (
  deposits: Deposit[],
  cursor: PollerCursor | undefined,
  head: number | bigint,
  more: boolean,
): SourcePage => ({
  facts: { deposits, fills: [], withdrawals: [] },
  cursor,
  head,
  more,
});

/** Records every `read`'s cursor, so a test can see where a restarted poller went on from. */
abstract class RecordingSource implements PollerSource {
  readonly reads: Array<PollerCursor | undefined> = [];
  read(after: PollerCursor | undefined): Promise<SourcePage> {
    this.reads.push(after);
    return Promise.resolve(this.page(after));
  }
  protected abstract page(after: PollerCursor | undefined): SourcePage;
}

/**
 * A Solana-like chain: slots, some skipped (no block), up to 2 read a page; a slot's block can be replaced by a fork
 * before it is final, so it has a reorg check. The cursor is a slot and its blockhash.
 */
class SlotSource extends RecordingSource {
  /** slot → its block, for the slots that have one (bigint: a slot may pass 2^53, as a TON lt does). */
  readonly slots = new Map<bigint, { hash: string; deposits: string[] }>();
  produce(slot: number | bigint, deposits: string[] = [], fork = "") {
    this.slots.set(BigInt(slot), { hash: `Slot${slot}${fork}Hash`, deposits });
  }
  protected page(after: PollerCursor | undefined): SourcePage {
    const slots = [...this.slots.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const head = slots.at(-1)!;
    if (after && this.slots.get(BigInt(after.position))?.hash !== after.key) return { reorged: true, head };
    const next = slots.filter((slot) => after === undefined || slot > BigInt(after.position)).slice(0, 2);
    const cursors = next.map((slot) => {
      const hash = this.slots.get(slot)!.hash;
      return { position: slot, key: hash, blockHash: hash };
    });
    const deposits = next.flatMap((slot) =>
      this.slots.get(slot)!.deposits.map((orderId, index) =>
        deposit(orderId, {
          blockNumber: slot,
          blockHash: this.slots.get(slot)!.hash,
          txHash: `Sig${orderId}`,
          position: index,
        }),
      ),
    );
    return {
      ...page(deposits, cursors.at(-1) ?? after, head, next.at(-1) !== undefined && next.at(-1)! < head),
      passed: cursors.slice(0, -1),
    };
  }
  async onChain(cursor: PollerCursor) {
    return this.slots.get(BigInt(cursor.position))?.hash === cursor.key;
  }
}

/**
 * A TON-like account: its transactions form a chain by (lt, hash), read oldest first after the last one seen, 2 a
 * page; lts grow with gaps and are no block heights (each transaction names its masterchain block). Final once
 * read: no reorg check.
 */
class AccountSource extends RecordingSource {
  readonly txs: Array<{ lt: number; hash: string; seqno: number; orderId: string }> = [];
  receive(lt: number, orderId: string) {
    this.txs.push({ lt, hash: `Tx${lt}Hash`, seqno: 40_000_000 + this.txs.length, orderId });
  }
  protected page(after: PollerCursor | undefined): SourcePage {
    const head = this.txs.at(-1)!.lt;
    const afterLt = after ? Number(after.key.split(":")[0]) : -1;
    const next = this.txs.filter((tx) => tx.lt > afterLt).slice(0, 2);
    const last = next.at(-1);
    const deposits = next.map((tx) =>
      deposit(tx.orderId, { blockNumber: BigInt(tx.seqno), blockHash: `Mc${tx.seqno}`, txHash: tx.hash, position: 0 }),
    );
    const cursor = last ? { position: last.lt, key: `${last.lt}:${last.hash}` } : after;
    return page(deposits, cursor, head, last !== undefined && last.lt < head);
  }
}

/**
 * An exchange's ledger: entries ordered by time, several in one millisecond, read after (time, id), 2 a page. No
 * blocks and no reorgs: each entry is where it is (its time stands where a block number would).
 */
class LedgerSource extends RecordingSource {
  readonly entries: Array<{ time: number; id: string; orderId: string }> = [];
  append(time: number, id: string, orderId: string) {
    this.entries.push({ time, id, orderId });
  }
  protected page(after: PollerCursor | undefined): SourcePage {
    const head = this.entries.at(-1)!.time;
    const [afterTime, afterId] = after ? [after.position, after.key.split(":")[1]!] : [-1, ""];
    const next = this.entries
      .filter((entry) => entry.time > afterTime || (entry.time === afterTime && entry.id > afterId))
      .slice(0, 2);
    const last = next.at(-1);
    const deposits = next.map((entry) =>
      deposit(entry.orderId, {
        blockNumber: BigInt(entry.time),
        blockHash: entry.id,
        txHash: entry.id,
        position: 0,
      }),
    );
    const cursor = last ? { position: last.time, key: `${last.time}:${last.id}` } : after;
    return page(deposits, cursor, head, next.length === 2);
  }
}

describe("poller sources of other shapes than a block walk", () => {
  const db = useMigratedDatabase({ max: 4 });
  let nextChainId = 920_000;
  const start = (source: PollerSource, chainId: number) =>
    startPoller({
      pool: db.pool,
      source,
      chainId,
      pollEveryMs: 5,
      retryDelay: () => 1,
      logger: pino({ level: "silent" }),
    });
  const orders = async (chainId: number) =>
    (
      await db.pool.query<{ order_id: string; block_number: string }>(
        "SELECT order_id, block_number FROM crossfill.deposit_facts WHERE chain_id = $1 ORDER BY block_number, tx_hash",
        [chainId],
      )
    ).rows.map((row) => `${row.order_id}@${row.block_number}`);
  const cursors = async (chainId: number) =>
    (
      await db.pool.query<{ height: string; cursor: string; block_hash: string | null }>(
        "SELECT height, cursor, block_hash FROM crossfill.poller_blocks WHERE chain_id = $1 ORDER BY height",
        [chainId],
      )
    ).rows.map((row) => [Number(row.height), row.cursor, row.block_hash]);
  /** Polls until the cursor stands at `position` and a pass found nothing more. */
  const pollTo = async (source: RecordingSource, chainId: number, position: number | bigint) => {
    const poller = start(source, chainId);
    await until(() => poller.health().cursor === position, `the cursor at ${position}`);
    const reads = source.reads.length;
    await until(() => source.reads.length > reads + 1, "an idle pass");
    await poller.stop();
    return poller;
  };

  it("a slot-skipping chain: cursors are slots with gaps, kept for its reorg check, walked back over the gaps", async () => {
    const chainId = nextChainId++;
    const source = new SlotSource();
    source.produce(0);
    source.produce(3, ["A"]);
    source.produce(4);
    source.produce(9, ["B"]);
    const first = await pollTo(source, chainId, 9);
    expect(first.health()).toMatchObject({ head: 9, cursor: 9, lag: 0, lastError: null });
    expect(await orders(chainId)).toEqual(["A@3", "B@9"]);
    expect(await cursors(chainId)).toEqual([
      [0, "Slot0Hash", "Slot0Hash"],
      [3, "Slot3Hash", "Slot3Hash"],
      [4, "Slot4Hash", "Slot4Hash"],
      [9, "Slot9Hash", "Slot9Hash"],
    ]);

    // Slot 9 lost to a fork that skips to 11: the loop walks back past the skipped slots to slot 4.
    source.slots.delete(9n);
    source.produce(11, ["C"], "Fork");
    source.reads.length = 0;
    await pollTo(source, chainId, 11);
    expect(source.reads[0]).toEqual({ position: 9, key: "Slot9Hash", blockHash: "Slot9Hash" });
    expect(source.reads[1]).toEqual({ position: 4, key: "Slot4Hash", blockHash: "Slot4Hash" });
    expect(await orders(chainId)).toEqual(["A@3", "C@11"]);
    expect((await cursors(chainId)).map(([slot]) => slot)).toEqual([0, 3, 4, 11]);
  });

  it("positions past 2^53 (a TON lt): stored, resumed from and walked back to exactly", async () => {
    const chainId = nextChainId++;
    const base = 2n ** 60n; // 2^60 + 1 and 2^60 + 3 are no doubles: a Number makes both 2^60 (doubles there are 256 apart)
    const source = new SlotSource();
    source.produce(base + 1n, ["A"]);
    source.produce(base + 3n, ["B"]);
    const first = await pollTo(source, chainId, base + 3n);
    expect(first.health()).toMatchObject({ head: base + 3n, cursor: base + 3n, lag: 0, lastError: null });
    const heights = async () =>
      (
        await db.pool.query<{ height: string }>(
          "SELECT height FROM crossfill.poller_blocks WHERE chain_id = $1 ORDER BY height",
          [chainId],
        )
      ).rows.map((row) => row.height);
    expect(await heights()).toEqual(["1152921504606846977", "1152921504606846979"]);
    expect(await orders(chainId)).toEqual(["A@1152921504606846977", "B@1152921504606846979"]);

    // 2^60 + 3 lost to a fork: a restarted poller reads on from that exact cursor, finds it gone, walks back to
    // 2^60 + 1 (kept exactly, so A stays) and reads the fork's 2^60 + 4.
    source.slots.delete(base + 3n);
    source.produce(base + 4n, ["C"], "Fork");
    source.reads.length = 0;
    const second = await pollTo(source, chainId, base + 4n);
    expect(source.reads[0]).toEqual({
      position: base + 3n,
      key: `Slot${base + 3n}Hash`,
      blockHash: `Slot${base + 3n}Hash`,
    });
    expect(source.reads[1]).toEqual({
      position: base + 1n,
      key: `Slot${base + 1n}Hash`,
      blockHash: `Slot${base + 1n}Hash`,
    });
    expect(second.health()).toMatchObject({ cursor: base + 4n, lastError: null });
    expect(await heights()).toEqual(["1152921504606846977", "1152921504606846980"]);
    expect(await orders(chainId)).toEqual(["A@1152921504606846977", "C@1152921504606846980"]);
  });

  it("an account read by (lt, hash): the cursor is its last transaction, resumed after a restart, no height faked", async () => {
    const chainId = nextChainId++;
    const source = new AccountSource();
    for (const [lt, orderId] of [
      [47_000_000_000_001, "A"],
      [47_000_000_000_009, "B"],
      [47_000_000_350_000, "C"],
    ] as const)
      source.receive(lt, orderId);
    await pollTo(source, chainId, 47_000_000_350_000);
    expect(await orders(chainId)).toEqual(["A@40000000", "B@40000001", "C@40000002"]);
    // No reorg check: only the newest cursor is kept, and it holds no block hash.
    expect(await cursors(chainId)).toEqual([[47_000_000_350_000, "47000000350000:Tx47000000350000Hash", null]]);

    source.receive(47_000_000_350_003, "D");
    source.reads.length = 0;
    const second = await pollTo(source, chainId, 47_000_000_350_003);
    expect(source.reads[0]).toEqual({ position: 47_000_000_350_000, key: "47000000350000:Tx47000000350000Hash" });
    expect(second.health()).toMatchObject({ head: 47_000_000_350_003, cursor: 47_000_000_350_003, lag: 0 });
    expect(await orders(chainId)).toEqual(["A@40000000", "B@40000001", "C@40000002", "D@40000003"]);
  });

  it("a time-ordered ledger: entries of one millisecond split across pages are each read once, page after page", async () => {
    const chainId = nextChainId++;
    const source = new LedgerSource();
    source.append(1_700_000_000_000, "e1", "A");
    source.append(1_700_000_000_000, "e2", "B");
    source.append(1_700_000_000_000, "e3", "C");
    source.append(1_700_000_000_250, "e4", "D");
    await pollTo(source, chainId, 1_700_000_000_250);
    // Two entries a page: the second page went on inside the same millisecond, after e2.
    expect(source.reads.slice(0, 3)).toEqual([
      undefined,
      { position: 1_700_000_000_000, key: "1700000000000:e2" },
      { position: 1_700_000_000_250, key: "1700000000250:e4" },
    ]);
    expect(await orders(chainId)).toEqual(["A@1700000000000", "B@1700000000000", "C@1700000000000", "D@1700000000250"]);
    expect(await cursors(chainId)).toEqual([[1_700_000_000_250, "1700000000250:e4", null]]);

    source.append(1_700_000_000_250, "e5", "E");
    source.reads.length = 0;
    await pollTo(source, chainId, 1_700_000_000_250);
    await until(async () => (await orders(chainId)).length === 5, "the new entry");
    expect(source.reads[0]).toEqual({ position: 1_700_000_000_250, key: "1700000000250:e4" });
    expect((await orders(chainId)).at(-1)).toBe("E@1700000000250");
  });
});
