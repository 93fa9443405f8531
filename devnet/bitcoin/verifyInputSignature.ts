import * as ecc from "@bitcoinerlab/secp256k1";
import { crypto, script as bscript, payments, type Transaction } from "bitcoinjs-lib";
import { RejectedTransaction } from "./RejectedTransaction.js";
import { scriptPubKeyType } from "./scriptPubKeyInfo.js";

export type Prevout = { script: Uint8Array; value: bigint };

const fail = (why: string) => new RejectedTransaction(-26, `mandatory-script-verify-flag-failed (${why})`);
const equal = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Checks input `index` of `tx` against the output it spends, the way a node's script interpreter would for
 * the key-based types wallets use: P2WPKH, P2SH-P2WPKH, P2TR key path and legacy P2PKH. Anything else
 * (P2WSH, bare P2SH scripts, taproot script paths) is refused rather than accepted unchecked.
 */
export function verifyInputSignature(tx: Transaction, index: number, prevouts: Prevout[]): void {
  const input = tx.ins[index]!;
  const { script, value } = prevouts[index]!;
  const type = scriptPubKeyType(script);
  switch (type) {
    case "v0_p2wpkh":
      if (input.script.length !== 0) throw fail("Witness requires empty scriptSig");
      return verifyP2wpkh(tx, index, script.subarray(2), value);
    case "p2sh": {
      const pushes = bscript.decompile(input.script);
      const redeem = pushes?.length === 1 ? pushes[0] : undefined;
      if (!(redeem instanceof Uint8Array)) throw fail("Only P2SH-P2WPKH inputs are verified by the devnet");
      if (!equal(crypto.hash160(redeem), script.subarray(2, 22)))
        throw fail("Script evaluated without error but finished with a false/empty top stack element");
      if (scriptPubKeyType(redeem) !== "v0_p2wpkh") throw fail("Only P2SH-P2WPKH inputs are verified by the devnet");
      return verifyP2wpkh(tx, index, redeem.subarray(2), value);
    }
    case "v1_p2tr":
      if (input.script.length !== 0) throw fail("Witness requires empty scriptSig");
      return verifyTaprootKeyPath(tx, index, script.subarray(2), prevouts);
    case "p2pkh":
      return verifyP2pkh(tx, index, script);
    default:
      throw fail(`the devnet does not verify ${type} inputs`);
  }
}

function checkEcdsa(hashFor: (hashType: number) => Uint8Array, signature: Uint8Array, pubkey: Uint8Array) {
  let decoded: { signature: Uint8Array; hashType: number };
  try {
    decoded = bscript.signature.decode(signature);
  } catch {
    throw fail("Non-canonical DER signature");
  }
  if (!ecc.isPoint(pubkey)) throw fail("Public key is neither compressed or uncompressed");
  if (!ecc.verify(hashFor(decoded.hashType), pubkey, decoded.signature))
    throw fail("Signature must be zero for failed CHECK(MULTI)SIG operation");
}

function verifyP2wpkh(tx: Transaction, index: number, program: Uint8Array, value: bigint) {
  const witness = tx.ins[index]!.witness;
  if (witness.length !== 2) throw fail("Witness program hash mismatch");
  const [signature, pubkey] = witness as [Uint8Array, Uint8Array];
  if (pubkey.length !== 33) throw fail("Using non-compressed keys in segwit");
  if (!equal(crypto.hash160(pubkey), program)) throw fail("Witness program hash mismatch");
  // BIP143 signs the P2PKH script of the key and the value of the spent output.
  const scriptCode = payments.p2pkh({ hash: program }).output!;
  checkEcdsa((hashType) => tx.hashForWitnessV0(index, scriptCode, value, hashType), signature, pubkey);
}

function verifyP2pkh(tx: Transaction, index: number, script: Uint8Array) {
  const pushes = bscript.decompile(tx.ins[index]!.script);
  const [signature, pubkey] = pushes ?? [];
  if (pushes?.length !== 2 || !(signature instanceof Uint8Array) || !(pubkey instanceof Uint8Array))
    throw fail("Operation not valid with the current stack size");
  if (!equal(crypto.hash160(pubkey), script.subarray(3, 23))) throw fail("Script failed an OP_EQUALVERIFY operation");
  checkEcdsa((hashType) => tx.hashForSignature(index, script, hashType), signature, pubkey);
}

function verifyTaprootKeyPath(tx: Transaction, index: number, outputKey: Uint8Array, prevouts: Prevout[]) {
  const witness = tx.ins[index]!.witness;
  if (witness.length !== 1) throw fail("the devnet verifies taproot key-path spends only");
  const signature = witness[0]!;
  if (signature.length !== 64 && signature.length !== 65) throw fail("Invalid Schnorr signature size");
  // A 64-byte signature means SIGHASH_DEFAULT; an explicit 0x00 byte is invalid (BIP341).
  const hashType = signature.length === 65 ? signature[64]! : 0;
  if (signature.length === 65 && hashType === 0) throw fail("Invalid Schnorr signature hash type");
  let hash: Uint8Array;
  try {
    hash = tx.hashForWitnessV1(
      index,
      prevouts.map((p) => p.script),
      prevouts.map((p) => p.value),
      hashType,
    );
  } catch {
    throw fail("Invalid Schnorr signature hash type");
  }
  if (!ecc.verifySchnorr(hash, outputKey, signature.subarray(0, 64))) throw fail("Invalid Schnorr signature");
}
