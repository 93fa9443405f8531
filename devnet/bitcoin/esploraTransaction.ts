import { script as bscript, type Network } from "bitcoinjs-lib";
import type { ChainBlock, ChainTx } from "./regtestChain.js";
import { satsToJson } from "./satsToJson.js";
import { scriptAsm } from "./scriptAsm.js";
import { scriptPubKeyInfo } from "./scriptPubKeyInfo.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

export type EsploraStatus =
  { confirmed: false } | { confirmed: true; block_height: number; block_hash: string; block_time: number };

export function esploraStatus(block: ChainBlock | undefined): EsploraStatus {
  return block
    ? { confirmed: true, block_height: block.height, block_hash: block.hash, block_time: block.block.timestamp }
    : { confirmed: false };
}

/** An output in Esplora's `vout`/`prevout` format; no `scriptpubkey_address` when the script has none. */
export function esploraOutput(script: Uint8Array, value: bigint, network: Network) {
  const info = scriptPubKeyInfo(script, network);
  return {
    scriptpubkey: hex(script),
    scriptpubkey_asm: info.asm,
    scriptpubkey_type: info.type,
    ...(info.address ? { scriptpubkey_address: info.address } : {}),
    value: satsToJson(value),
  };
}

/** `GET /tx/:txid`'s body (Esplora's transaction format). */
export function esploraTransaction(entry: ChainTx, block: ChainBlock | undefined, network: Network) {
  const { tx } = entry;
  return {
    txid: entry.txid,
    version: tx.version,
    locktime: tx.locktime,
    vin: tx.ins.map((input, i) => {
      const prevout = entry.prevouts[i];
      const pushes = prevout && bscript.decompile(input.script);
      const redeem = pushes?.at(-1);
      return {
        txid: Buffer.from(input.hash).reverse().toString("hex"),
        vout: input.index,
        prevout: prevout ? esploraOutput(prevout.script, prevout.value, network) : null,
        scriptsig: hex(input.script),
        scriptsig_asm: scriptAsm(input.script),
        ...(input.witness.length ? { witness: input.witness.map(hex) } : {}),
        is_coinbase: prevout === null,
        sequence: input.sequence,
        ...(prevout && scriptPubKeyInfo(prevout.script, network).type === "p2sh" && redeem instanceof Uint8Array
          ? { inner_redeemscript_asm: scriptAsm(redeem) }
          : {}),
      };
    }),
    vout: tx.outs.map((out) => esploraOutput(out.script, out.value, network)),
    size: tx.byteLength(),
    weight: tx.weight(),
    fee: satsToJson(entry.fee),
    status: esploraStatus(block),
  };
}
