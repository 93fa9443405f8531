import { type Block, type Network, Transaction } from "bitcoinjs-lib";
import { buildBlock, coinbaseInputScript } from "./buildBlock.js";
import { checkStandardTransaction } from "./checkStandardTransaction.js";
import { RejectedTransaction } from "./RejectedTransaction.js";
import { type Prevout, verifyInputSignature } from "./verifyInputSignature.js";

export type ChainTx = {
  tx: Transaction;
  txid: string;
  /** The outputs each input spends; null for a coinbase(-like) input. */
  prevouts: (Prevout | null)[];
  fee: bigint;
  vsize: number;
};

export type ChainBlock = { block: Block; hash: string; height: number; txs: ChainTx[]; mediantime: number };

export type Spend = { txid: string; vin: number; block?: ChainBlock };

export type Utxo = { txid: string; vout: number; value: bigint; block?: ChainBlock };

export type RegtestChainOptions = {
  network: Network;
  /** Output script of the miner's coinbase payouts. */
  minerScript: Uint8Array;
  /** One coinbase-like funding transaction per entry in the genesis block (spendable at once). */
  funding: { script: Uint8Array; value: bigint }[];
  now?: () => number;
};

export type RegtestChain = ReturnType<typeof createRegtestChain>;

const halvingInterval = 150; // regtest
const maxBlockWeight = 4_000_000 - 4_000; // room for the coinbase
const outpoint = (txid: string, vout: number) => `${txid}:${vout}`;
const txidOfInput = (hash: Uint8Array) => Buffer.from(hash).reverse().toString("hex");
/** fee rates compared without division: a/av > b/bv */
const higherRate = (a: bigint, av: number, b: bigint, bv: number) => a * BigInt(bv) > b * BigInt(av);
const btc = (sats: bigint) => (Number(sats) / 1e8).toFixed(8);

/**
 * An in-memory regtest chain: blocks, the confirmed UTXO set, a mempool that validates like bitcoind's
 * (standardness, inputs, fees, signatures, full RBF), mining in fee-rate order and reorgs. All state is
 * derived from the best chain's blocks plus the mempool, so a reorg rebuilds the indexes by replaying.
 */
export function createRegtestChain(options: RegtestChainOptions) {
  const { minerScript, now = Date.now } = options;
  const best: ChainBlock[] = [];
  const blocksByHash = new Map<string, ChainBlock>(); // stale blocks stay: Esplora still serves them
  let blocksBuilt = 0;

  // Indexes of the best chain, rebuilt on reorg.
  let confirmed = new Map<string, { entry: ChainTx; block: ChainBlock }>();
  let unspent = new Map<string, Prevout>();
  let chainSpends = new Map<string, Spend>();
  let history = new Map<string, string[]>(); // script hex → txids in chain order

  const pool = new Map<string, ChainTx>();
  const poolSpends = new Map<string, Spend>();

  function connect(cb: ChainBlock) {
    best.push(cb);
    blocksByHash.set(cb.hash, cb);
    for (const entry of cb.txs) {
      confirmed.set(entry.txid, { entry, block: cb });
      const scripts = new Set<string>();
      entry.tx.ins.forEach((input, vin) => {
        const prevout = entry.prevouts[vin];
        if (!prevout) return;
        const key = outpoint(txidOfInput(input.hash), input.index);
        unspent.delete(key);
        chainSpends.set(key, { txid: entry.txid, vin, block: cb });
        scripts.add(Buffer.from(prevout.script).toString("hex"));
      });
      entry.tx.outs.forEach((out, vout) => {
        unspent.set(outpoint(entry.txid, vout), { script: out.script, value: out.value });
        scripts.add(Buffer.from(out.script).toString("hex"));
      });
      for (const s of scripts) {
        const txids = history.get(s);
        if (txids) txids.push(entry.txid);
        else history.set(s, [entry.txid]);
      }
    }
  }

  function appendBlock(transactions: ChainTx[], coinbase?: { fees: bigint }) {
    const prev = best.at(-1);
    const height = best.length;
    const mediantime = medianTimePast();
    const timestamp = Math.max(Math.floor(now() / 1000), prev ? mediantime + 1 : 0);
    const subsidy = (50n * 100_000_000n) >> BigInt(Math.floor(height / halvingInterval));
    const block = buildBlock({
      prevHash: prev?.block.getHash(),
      height,
      timestamp,
      transactions: transactions.map((t) => t.tx),
      coinbase: coinbase && { script: minerScript, value: subsidy + coinbase.fees, tag: blocksBuilt++ },
    });
    const txs = coinbase ? [chainTxOf(block.transactions![0]!, [null]), ...transactions] : transactions;
    const cb: ChainBlock = { block, hash: block.getId(), height, txs, mediantime: 0 };
    connect(cb);
    cb.mediantime = medianTimePast();
    return cb;
  }

  function medianTimePast() {
    const times = best
      .slice(-11)
      .map((b) => b.block.timestamp)
      .sort((a, b) => a - b);
    return times.length ? times[Math.floor(times.length / 2)]! : 0;
  }

  function chainTxOf(tx: Transaction, prevouts: (Prevout | null)[], fee = 0n): ChainTx {
    return { tx, txid: tx.getId(), prevouts, fee, vsize: tx.virtualSize() };
  }

  /** The given mempool transactions and every mempool transaction descending from them. */
  function descendants(txids: Iterable<string>): Set<string> {
    const found = new Set<string>();
    const queue = [...txids];
    while (queue.length) {
      const txid = queue.pop()!;
      if (found.has(txid)) continue;
      found.add(txid);
      const entry = pool.get(txid);
      entry?.tx.outs.forEach((_, vout) => {
        const spend = poolSpends.get(outpoint(txid, vout));
        if (spend) queue.push(spend.txid);
      });
    }
    return found;
  }

  function removeFromPool(txid: string) {
    const entry = pool.get(txid);
    if (!entry) return;
    pool.delete(txid);
    for (const input of entry.tx.ins) poolSpends.delete(outpoint(txidOfInput(input.hash), input.index));
  }

  function addToPool(entry: ChainTx) {
    pool.set(entry.txid, entry);
    entry.tx.ins.forEach((input, vin) =>
      poolSpends.set(outpoint(txidOfInput(input.hash), input.index), { txid: entry.txid, vin }),
    );
  }

  /** Validates `tx` against the chain and mempool; returns the entry and the mempool txids it replaces. */
  function validate(tx: Transaction, allowReplacement: boolean): { entry: ChainTx; evicted: Set<string> } {
    const txid = tx.getId();
    if (confirmed.has(txid)) throw new RejectedTransaction(-27, "Transaction already in block chain");
    checkStandardTransaction(tx);
    const prevouts: Prevout[] = [];
    const conflicts = new Set<string>();
    for (const input of tx.ins) {
      const parent = txidOfInput(input.hash);
      const key = outpoint(parent, input.index);
      const spentInPool = poolSpends.get(key);
      if (spentInPool) conflicts.add(spentInPool.txid);
      const out = pool.get(parent)?.tx.outs[input.index];
      const prevout = out ? { script: out.script, value: out.value } : unspent.get(key);
      if (!prevout) throw new RejectedTransaction(-25, "bad-txns-inputs-missingorspent");
      prevouts.push(prevout);
    }
    const valueIn = prevouts.reduce((sum, p) => sum + p.value, 0n);
    const valueOut = tx.outs.reduce((sum, o) => sum + o.value, 0n);
    if (valueIn < valueOut)
      throw new RejectedTransaction(
        -26,
        `bad-txns-in-belowout, value in (${btc(valueIn)}) < value out (${btc(valueOut)})`,
      );
    const entry = chainTxOf(tx, prevouts, valueIn - valueOut);
    // 1 sat/vB: bitcoind's default -minrelaytxfee (1000 sat/kvB), also its incremental relay fee below.
    if (entry.fee < BigInt(entry.vsize))
      throw new RejectedTransaction(-26, `min relay fee not met, ${entry.fee} < ${entry.vsize}`);

    const evicted = descendants(conflicts);
    if (evicted.size) {
      if (!allowReplacement) throw new RejectedTransaction(-26, "txn-mempool-conflict");
      for (const input of tx.ins)
        if (evicted.has(txidOfInput(input.hash))) throw new RejectedTransaction(-26, "bad-txns-spends-conflicting-tx");
      let evictedFees = 0n;
      for (const id of evicted) {
        const old = pool.get(id)!;
        evictedFees += old.fee;
        if (!higherRate(entry.fee, entry.vsize, old.fee, old.vsize))
          throw new RejectedTransaction(
            -26,
            `insufficient fee, rejecting replacement ${txid}; new feerate ${rate(entry)} BTC/kvB <= old feerate ${rate(old)} BTC/kvB`,
          );
      }
      if (entry.fee < evictedFees)
        throw new RejectedTransaction(
          -26,
          `insufficient fee, rejecting replacement ${txid}, less fees than conflicting txs; ${btc(entry.fee)} < ${btc(evictedFees)}`,
        );
      if (entry.fee - evictedFees < BigInt(entry.vsize))
        throw new RejectedTransaction(
          -26,
          `insufficient fee, rejecting replacement ${txid}, not enough additional fees to relay; ${btc(entry.fee - evictedFees)} < ${btc(BigInt(entry.vsize))}`,
        );
    }
    tx.ins.forEach((_, index) => verifyInputSignature(tx, index, prevouts));
    return { entry, evicted };
  }

  function rate(entry: ChainTx) {
    return ((Number(entry.fee) * 1000) / entry.vsize / 1e8).toFixed(8);
  }

  /** Mempool transactions by fee rate, each after its in-mempool parents, within one block's weight. */
  function selectForBlock(): ChainTx[] {
    const chosen: ChainTx[] = [];
    const chosenIds = new Set<string>();
    const excluded = new Set<string>();
    let weight = 0;
    for (;;) {
      let pick: ChainTx | undefined;
      for (const entry of pool.values()) {
        if (chosenIds.has(entry.txid) || excluded.has(entry.txid)) continue;
        const ready = entry.tx.ins.every((i) => !pool.has(txidOfInput(i.hash)) || chosenIds.has(txidOfInput(i.hash)));
        if (ready && (!pick || higherRate(entry.fee, entry.vsize, pick.fee, pick.vsize))) pick = entry;
      }
      if (!pick) return chosen;
      if (weight + pick.tx.weight() > maxBlockWeight) {
        excluded.add(pick.txid);
        continue;
      }
      weight += pick.tx.weight();
      chosen.push(pick);
      chosenIds.add(pick.txid);
    }
  }

  function mineOne(includeMempool: boolean): string {
    const txs = includeMempool ? selectForBlock() : [];
    const cb = appendBlock(txs, { fees: txs.reduce((sum, t) => sum + t.fee, 0n) });
    for (const t of txs) removeFromPool(t.txid);
    return cb.hash;
  }

  /** Who spends an output, in the best chain or the mempool; undefined when unspent. */
  function spenderOf(txid: string, vout: number): Spend | undefined {
    return chainSpends.get(outpoint(txid, vout)) ?? poolSpends.get(outpoint(txid, vout));
  }

  /** Transactions paying or spending `script`: confirmed ones oldest first, then the mempool's. */
  function historyOf(script: Uint8Array): { confirmed: { entry: ChainTx; block: ChainBlock }[]; mempool: ChainTx[] } {
    const hex = Buffer.from(script).toString("hex");
    const touches = (entry: ChainTx) =>
      entry.tx.outs.some((o) => Buffer.from(o.script).toString("hex") === hex) ||
      entry.prevouts.some((p) => p && Buffer.from(p.script).toString("hex") === hex);
    return {
      confirmed: (history.get(hex) ?? []).map((txid) => confirmed.get(txid)!),
      mempool: [...pool.values()].filter(touches),
    };
  }

  // Genesis: the devnet's funding, one coinbase-like transaction per funded script.
  appendBlock(
    options.funding.map(({ script, value }, index) => {
      const tx = new Transaction();
      tx.version = 2;
      tx.addInput(new Uint8Array(32), 0xffffffff, 0xffffffff, coinbaseInputScript(0, index));
      tx.addOutput(script, value);
      return chainTxOf(tx, [null]);
    }),
  );

  return {
    network: options.network,

    /** Validates and adds a raw transaction to the mempool; returns its txid or throws RejectedTransaction. */
    submit(hex: string): string {
      let tx: Transaction;
      try {
        if (!/^([0-9a-fA-F]{2})+$/.test(hex)) throw new Error("not hex");
        tx = Transaction.fromHex(hex);
      } catch {
        throw new RejectedTransaction(-22, "TX decode failed. Make sure the tx has at least one input.");
      }
      const txid = tx.getId();
      if (pool.has(txid)) return txid; // bitcoind answers a rebroadcast with the txid
      const { entry, evicted } = validate(tx, true);
      for (const id of evicted) removeFromPool(id);
      addToPool(entry);
      return txid;
    },

    /** Mines `n` blocks from the mempool (fee-rate order); returns their hashes. */
    mine(n = 1): string[] {
      return Array.from({ length: n }, () => mineOne(true));
    },

    /**
     * Replaces the last `depth` blocks with `depth + 1` empty ones. Their transactions go back to the
     * mempool (before the existing mempool, as a node re-adds disconnected blocks' transactions), except
     * those in `dropTxids` and any that no longer validate (now conflicting or spending dropped outputs).
     */
    reorg(depth: number, opts: { dropTxids?: Iterable<string> } = {}): string[] {
      if (!Number.isInteger(depth) || depth < 1 || depth >= best.length)
        throw new Error(`reorg depth must be between 1 and ${best.length - 1} (got ${depth})`);
      const drop = new Set(opts.dropTxids ?? []);
      const disconnected = best.splice(best.length - depth, depth);
      const kept = best.splice(0, best.length);
      confirmed = new Map();
      unspent = new Map();
      chainSpends = new Map();
      history = new Map();
      kept.forEach(connect);
      const candidates = [...disconnected.flatMap((b) => b.txs.slice(1)), ...pool.values()];
      for (const { txid } of [...pool.values()]) removeFromPool(txid);
      for (const old of candidates) {
        if (drop.has(old.txid)) continue;
        try {
          addToPool(validate(old.tx, false).entry);
        } catch (err) {
          if (!(err instanceof RejectedTransaction)) throw err;
        }
      }
      return Array.from({ length: depth + 1 }, () => mineOne(false));
    },

    tip: (): ChainBlock => best.at(-1)!,
    blockAtHeight: (height: number): ChainBlock | undefined => best[height],
    blockByHash: (hash: string): ChainBlock | undefined => blocksByHash.get(hash),
    isInBestChain: (cb: ChainBlock): boolean => best[cb.height] === cb,

    /** A transaction in the best chain (with its block) or the mempool. */
    findTx(txid: string): { entry: ChainTx; block?: ChainBlock } | undefined {
      const entry = pool.get(txid);
      return entry ? { entry } : confirmed.get(txid);
    },

    spenderOf,

    historyOf,
    /** Outputs paying `script` not spent in the best chain nor the mempool. */
    utxosOf(script: Uint8Array): Utxo[] {
      const { confirmed: chainTxs, mempool } = historyOf(script);
      const hex = Buffer.from(script).toString("hex");
      const located = [...chainTxs, ...mempool.map((entry) => ({ entry, block: undefined }))];
      return located.flatMap(({ entry, block }) =>
        entry.tx.outs.flatMap((out, vout) =>
          Buffer.from(out.script).toString("hex") === hex && !spenderOf(entry.txid, vout)
            ? [{ txid: entry.txid, vout, value: out.value, block }]
            : [],
        ),
      );
    },

    mempool: (): ChainTx[] => [...pool.values()],
  };
}
