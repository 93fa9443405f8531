import type { Transaction } from "bitcoinjs-lib";
import { dustThreshold } from "./dustThreshold.js";
import { RejectedTransaction } from "./RejectedTransaction.js";
import { scriptPubKeyType } from "./scriptPubKeyInfo.js";

const maxMoney = 21_000_000n * 100_000_000n;
/** Bitcoin Core's default -datacarriersize before v30: OP_RETURN + push opcodes + 80 bytes of data. */
export const maxOpReturnScriptBytes = 83;
const maxStandardTxWeight = 400_000;

/** The checks bitcoind makes on a transaction alone (CheckTransaction, then IsStandardTx), same reasons. */
export function checkStandardTransaction(tx: Transaction): void {
  const reject = (reason: string) => new RejectedTransaction(-26, reason);
  if (tx.ins.length === 0) throw reject("bad-txns-vin-empty");
  if (tx.outs.length === 0) throw reject("bad-txns-vout-empty");
  let total = 0n;
  for (const out of tx.outs) {
    if (out.value < 0n) throw reject("bad-txns-vout-negative");
    if (out.value > maxMoney) throw reject("bad-txns-vout-toolarge");
    total += out.value;
    if (total > maxMoney) throw reject("bad-txns-txouttotal-toolarge");
  }
  const outpoints = new Set(tx.ins.map((i) => `${Buffer.from(i.hash).toString("hex")}:${i.index}`));
  if (outpoints.size !== tx.ins.length) throw reject("bad-txns-inputs-duplicate");
  if (tx.isCoinbase()) throw reject("coinbase");

  if (tx.version < 1 || tx.version > 3) throw reject("version");
  if (tx.weight() > maxStandardTxWeight) throw reject("tx-size");
  let opReturns = 0;
  for (const out of tx.outs) {
    const type = scriptPubKeyType(out.script);
    if (type === "op_return") {
      opReturns++;
      if (out.script.length > maxOpReturnScriptBytes) throw reject("scriptpubkey");
    } else if (type === "unknown" || type === "empty" || type === "p2pk") throw reject("scriptpubkey");
    else if (out.value < dustThreshold(out.script)) throw reject("dust");
  }
  if (opReturns > 1) throw reject("multi-op-return");
}
