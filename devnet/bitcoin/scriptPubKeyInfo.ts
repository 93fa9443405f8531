import { address, type Network } from "bitcoinjs-lib";
import { scriptAsm } from "./scriptAsm.js";

/** Esplora's names for output script types (electrs' `scriptpubkey_type`). */
export type ScriptPubKeyType =
  "p2pkh" | "p2sh" | "v0_p2wpkh" | "v0_p2wsh" | "v1_p2tr" | "op_return" | "p2pk" | "empty" | "unknown";

export type ScriptPubKeyInfo = { type: ScriptPubKeyType; asm: string; address?: string };

export function scriptPubKeyType(s: Uint8Array): ScriptPubKeyType {
  const n = s.length;
  if (n === 0) return "empty";
  if (n === 25 && s[0] === 0x76 && s[1] === 0xa9 && s[2] === 0x14 && s[23] === 0x88 && s[24] === 0xac) return "p2pkh";
  if (n === 23 && s[0] === 0xa9 && s[1] === 0x14 && s[22] === 0x87) return "p2sh";
  if (n === 22 && s[0] === 0x00 && s[1] === 0x14) return "v0_p2wpkh";
  if (n === 34 && s[0] === 0x00 && s[1] === 0x20) return "v0_p2wsh";
  if (n === 34 && s[0] === 0x51 && s[1] === 0x20) return "v1_p2tr";
  if (s[0] === 0x6a) return "op_return";
  if ((n === 35 && s[0] === 0x21 && s[34] === 0xac) || (n === 67 && s[0] === 0x41 && s[66] === 0xac)) return "p2pk";
  return "unknown";
}

/** Type, asm and (when the script has one) address of an output script, as Esplora reports a `vout`. */
export function scriptPubKeyInfo(script: Uint8Array, network: Network): ScriptPubKeyInfo {
  const type = scriptPubKeyType(script);
  const info: ScriptPubKeyInfo = { type, asm: scriptAsm(script) };
  if (type !== "op_return" && type !== "p2pk" && type !== "empty" && type !== "unknown")
    info.address = address.fromOutputScript(script, network);
  return info;
}
