import { address as baddress } from "bitcoinjs-lib";
import { Hono } from "hono";
import { difficultyOf } from "./buildBlock.js";
import { esploraStatus, esploraTransaction } from "./esploraTransaction.js";
import { feeEstimates } from "./feeEstimates.js";
import type { ChainBlock, ChainTx, RegtestChain } from "./regtestChain.js";
import { RejectedTransaction } from "./RejectedTransaction.js";
import { satsToJson } from "./satsToJson.js";

const hash = /^[0-9a-f]{64}$/i;
const mempoolTxsLimit = 50;
/** Page size of confirmed address history and of block transactions. */
const chainTxsPage = 25;
/** Most blocks a single devnet mine request may ask for, so a typo cannot stall the process. */
const maxMineBlocks = 1000;

/**
 * The Esplora REST subset wallets and the Bitcoin poller use, over a regtest chain, with Esplora's paths,
 * field names and text errors; plus `POST /devnet/mine` and `POST /devnet/reorg`, which exist only here.
 */
export function esploraApp(chain: RegtestChain): Hono {
  const { network } = chain;
  const app = new Hono();
  const txJson = (entry: ChainTx, block?: ChainBlock) => esploraTransaction(entry, block, network);

  const scriptOf = (address: string): Uint8Array | undefined => {
    try {
      return baddress.toOutputScript(address, network);
    } catch {
      return undefined;
    }
  };
  const blockJson = (cb: ChainBlock) => ({
    id: cb.hash,
    height: cb.height,
    version: cb.block.version,
    timestamp: cb.block.timestamp,
    tx_count: cb.txs.length,
    size: cb.block.byteLength(false, true),
    weight: cb.block.weight(),
    merkle_root: Buffer.from(cb.block.merkleRoot!).reverse().toString("hex"),
    previousblockhash: cb.height ? Buffer.from(cb.block.prevHash!).reverse().toString("hex") : null,
    mediantime: cb.mediantime,
    nonce: cb.block.nonce,
    bits: cb.block.bits,
    difficulty: difficultyOf(cb.block.bits),
  });

  app.post("/tx", async (c) => {
    const body = (await c.req.text()).trim();
    try {
      return c.text(chain.submit(body));
    } catch (err) {
      if (err instanceof RejectedTransaction) return c.text(err.esploraText, 400);
      throw err;
    }
  });

  app.use("/tx/:txid/*", async (c, next) => {
    if (!hash.test(c.req.param("txid"))) return c.text("Invalid hex string", 400);
    await next();
  });
  app.get("/tx/:txid", (c) => {
    const txid = c.req.param("txid");
    if (!hash.test(txid)) return c.text("Invalid hex string", 400);
    const found = chain.findTx(txid.toLowerCase());
    return found ? c.json(txJson(found.entry, found.block)) : c.text("Transaction not found", 404);
  });
  app.get("/tx/:txid/status", (c) => {
    const found = chain.findTx(c.req.param("txid").toLowerCase());
    return found ? c.json(esploraStatus(found.block)) : c.text("Transaction not found", 404);
  });
  app.get("/tx/:txid/hex", (c) => {
    const found = chain.findTx(c.req.param("txid").toLowerCase());
    return found ? c.text(found.entry.tx.toHex()) : c.text("Transaction not found", 404);
  });
  app.get("/tx/:txid/outspend/:vout", (c) => {
    const txid = c.req.param("txid").toLowerCase();
    const vout = c.req.param("vout");
    if (!/^\d+$/.test(vout)) return c.text("Invalid vout", 400);
    const found = chain.findTx(txid);
    if (!found || Number(vout) >= found.entry.tx.outs.length) return c.text("Transaction not found", 404);
    const spend = chain.spenderOf(txid, Number(vout));
    return c.json(
      spend ? { spent: true, txid: spend.txid, vin: spend.vin, status: esploraStatus(spend.block) } : { spent: false },
    );
  });

  app.use("/address/:address/*", async (c, next) => {
    if (!scriptOf(c.req.param("address"))) return c.text("Invalid Bitcoin address", 400);
    await next();
  });
  app.get("/address/:address", (c) => {
    const address = c.req.param("address");
    const script = scriptOf(address);
    if (!script) return c.text("Invalid Bitcoin address", 400);
    const { confirmed, mempool } = chain.historyOf(script);
    const hex = Buffer.from(script).toString("hex");
    const stats = (entries: ChainTx[]) => {
      const s = { funded_txo_count: 0, funded_txo_sum: 0n, spent_txo_count: 0, spent_txo_sum: 0n };
      for (const { tx, prevouts } of entries) {
        for (const out of tx.outs)
          if (Buffer.from(out.script).toString("hex") === hex) {
            s.funded_txo_count++;
            s.funded_txo_sum += out.value;
          }
        for (const p of prevouts)
          if (p && Buffer.from(p.script).toString("hex") === hex) {
            s.spent_txo_count++;
            s.spent_txo_sum += p.value;
          }
      }
      return {
        funded_txo_count: s.funded_txo_count,
        funded_txo_sum: satsToJson(s.funded_txo_sum),
        spent_txo_count: s.spent_txo_count,
        spent_txo_sum: satsToJson(s.spent_txo_sum),
        tx_count: entries.length,
      };
    };
    return c.json({
      address,
      chain_stats: stats(confirmed.map((t) => t.entry)),
      mempool_stats: stats(mempool),
    });
  });
  const newestMempool = (script: Uint8Array) =>
    chain
      .historyOf(script)
      .mempool.reverse()
      .slice(0, mempoolTxsLimit)
      .map((entry) => txJson(entry));
  const confirmedAfter = (script: Uint8Array, lastSeen?: string) => {
    const newestFirst = chain.historyOf(script).confirmed.reverse();
    const start = lastSeen ? newestFirst.findIndex((t) => t.entry.txid === lastSeen) + 1 : 0;
    // An unknown last_seen gives an empty page, as Esplora does.
    if (lastSeen && start === 0) return [];
    return newestFirst.slice(start, start + chainTxsPage).map((t) => txJson(t.entry, t.block));
  };
  app.get("/address/:address/txs", (c) => {
    const script = scriptOf(c.req.param("address"))!;
    return c.json([...newestMempool(script), ...confirmedAfter(script)]);
  });
  app.get("/address/:address/txs/mempool", (c) => c.json(newestMempool(scriptOf(c.req.param("address"))!)));
  app.get("/address/:address/txs/chain", (c) => c.json(confirmedAfter(scriptOf(c.req.param("address"))!)));
  app.get("/address/:address/txs/chain/:lastSeen", (c) => {
    const lastSeen = c.req.param("lastSeen");
    if (!hash.test(lastSeen)) return c.text("Invalid hex string", 400);
    return c.json(confirmedAfter(scriptOf(c.req.param("address"))!, lastSeen.toLowerCase()));
  });
  app.get("/address/:address/utxo", (c) =>
    c.json(
      chain.utxosOf(scriptOf(c.req.param("address"))!).map((u) => ({
        txid: u.txid,
        vout: u.vout,
        status: esploraStatus(u.block),
        value: satsToJson(u.value),
      })),
    ),
  );

  app.get("/blocks/tip/height", (c) => c.text(String(chain.tip().height)));
  app.get("/blocks/tip/hash", (c) => c.text(chain.tip().hash));
  app.get("/block-height/:height", (c) => {
    const height = c.req.param("height");
    if (!/^\d+$/.test(height)) return c.text("Invalid height", 400);
    const cb = chain.blockAtHeight(Number(height));
    return cb ? c.text(cb.hash) : c.text("Block not found", 404);
  });
  app.use("/block/:hash/*", async (c, next) => {
    if (!hash.test(c.req.param("hash"))) return c.text("Invalid hex string", 400);
    if (!chain.blockByHash(c.req.param("hash").toLowerCase())) return c.text("Block not found", 404);
    await next();
  });
  const blockParam = (value: string) => chain.blockByHash(value.toLowerCase())!;
  app.get("/block/:hash", (c) => {
    if (!hash.test(c.req.param("hash"))) return c.text("Invalid hex string", 400);
    const cb = chain.blockByHash(c.req.param("hash").toLowerCase());
    return cb ? c.json(blockJson(cb)) : c.text("Block not found", 404);
  });
  app.get("/block/:hash/txids", (c) => c.json(blockParam(c.req.param("hash")).txs.map((t) => t.txid)));
  const blockTxs = (hash: string, start: string | undefined) => {
    const cb = blockParam(hash);
    const from = Number(start ?? 0);
    return cb.txs.slice(from, from + chainTxsPage).map((t) => txJson(t, cb));
  };
  app.get("/block/:hash/txs", (c) => c.json(blockTxs(c.req.param("hash"), undefined)));
  app.get("/block/:hash/txs/:start", (c) => {
    const start = c.req.param("start");
    // Esplora pages by 25 and refuses a start index off that grid.
    if (!/^\d+$/.test(start) || Number(start) % chainTxsPage !== 0)
      return c.text("start index must be a multiple of 25", 400);
    return c.json(blockTxs(c.req.param("hash"), start));
  });
  app.get("/block/:hash/status", (c) => {
    const cb = blockParam(c.req.param("hash"));
    if (!chain.isInBestChain(cb)) return c.json({ in_best_chain: false });
    const next = chain.blockAtHeight(cb.height + 1);
    return c.json({ in_best_chain: true, height: cb.height, next_best: next ? next.hash : null });
  });

  app.get("/fee-estimates", (c) => c.json(feeEstimates(chain.mempool())));

  app.post("/devnet/mine", async (c) => {
    const body = (await c.req.json().catch(() => ({}))) as { blocks?: unknown };
    const blocks = body.blocks ?? 1;
    if (!Number.isInteger(blocks) || (blocks as number) < 1 || (blocks as number) > maxMineBlocks)
      return c.text(`blocks must be an integer from 1 to ${maxMineBlocks}`, 400);
    return c.json({ hashes: chain.mine(blocks as number) });
  });
  app.post("/devnet/reorg", async (c) => {
    const body = (await c.req.json().catch(() => ({}))) as { depth?: unknown; dropTxids?: unknown };
    const drop = Array.isArray(body.dropTxids) ? body.dropTxids.filter((t) => typeof t === "string") : [];
    try {
      return c.json({ hashes: chain.reorg(Number(body.depth), { dropTxids: drop }) });
    } catch (err) {
      return c.text((err as Error).message, 400);
    }
  });

  app.notFound((c) => c.text("Not Found", 404));
  return app;
}
