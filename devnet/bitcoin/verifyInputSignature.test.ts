import { crypto, networks, payments, Psbt, script as bscript, type Transaction } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import { devnetBitcoinKey } from "./devnetBitcoinKey.js";
import { ecPair } from "./ecPair.js";
import { type Prevout, verifyInputSignature } from "./verifyInputSignature.js";

const network = networks.regtest;
const key = ecPair.fromWIF(devnetBitcoinKey("verify").wif, network);
const xOnly = key.publicKey.subarray(1, 33);
const value = 50_000n;

function signed(prevout: Prevout, extra: object, signer = key): Transaction {
  const psbt = new Psbt({ network });
  psbt.addInput({ hash: "11".repeat(32), index: 0, witnessUtxo: prevout, ...extra });
  psbt.addOutput({ script: prevout.script, value: value - 500n });
  psbt.signAllInputs(signer).finalizeAllInputs();
  return psbt.extractTransaction();
}
const why = (tx: Transaction, prevout: Prevout) => {
  try {
    verifyInputSignature(tx, 0, [prevout]);
    return "valid";
  } catch (err) {
    return (err as Error).message;
  }
};

describe("verifyInputSignature", () => {
  const p2wpkh = { script: payments.p2wpkh({ pubkey: key.publicKey }).output!, value };

  it("checks a P2WPKH witness against the spent script's key hash and the spent value", () => {
    const tx = signed(p2wpkh, {});
    expect(why(tx, p2wpkh)).toBe("valid");
    expect(why(tx, { ...p2wpkh, value: value + 1n })).toMatch(/Signature must be zero/);
    const other = payments.p2wpkh({ pubkey: ecPair.fromWIF(devnetBitcoinKey("other").wif, network).publicKey });
    expect(why(tx, { script: other.output!, value })).toMatch(/Witness program hash mismatch/);
    tx.ins[0]!.witness = [tx.ins[0]!.witness[0]!];
    expect(why(tx, p2wpkh)).toMatch(/Witness program hash mismatch/);
  });

  it("checks a taproot key-path signature, refusing an explicit SIGHASH_DEFAULT byte", () => {
    const p2tr = { script: payments.p2tr({ internalPubkey: xOnly }).output!, value };
    const tx = signed(p2tr, { tapInternalKey: xOnly }, key.tweak(crypto.taggedHash("TapTweak", xOnly)));
    expect(why(tx, p2tr)).toBe("valid");
    tx.ins[0]!.witness = [new Uint8Array([...tx.ins[0]!.witness[0]!, 0x00])];
    expect(why(tx, p2tr)).toMatch(/Invalid Schnorr signature hash type/);
  });

  it("refuses a P2SH input whose redeem script is not P2WPKH", () => {
    const redeem = payments.p2wsh({ redeem: { output: p2wpkh.script } });
    const p2sh = { script: payments.p2sh({ redeem }).output!, value };
    const tx = signed(p2wpkh, {});
    tx.ins[0]!.script = bscript.compile([redeem.output!]);
    expect(why(tx, p2sh)).toMatch(/Only P2SH-P2WPKH inputs are verified/);
  });
});
