import { opcodes } from "bitcoinjs-lib";

// OPS is a TypeScript enum, so it maps opcode numbers back to names too.
const names = opcodes as unknown as Record<number, string | undefined>;

/**
 * A script in the asm notation Esplora prints (rust-bitcoin's: `OP_PUSHBYTES_20 <hex>`, `OP_PUSHNUM_1`),
 * which keeps the push opcodes bitcoinjs' `script.toASM` hides.
 */
export function scriptAsm(script: Uint8Array): string {
  const parts: string[] = [];
  let i = 0;
  while (i < script.length) {
    const op = script[i++]!;
    if (op >= 0x01 && op <= 0x4e) {
      const [label, lengthBytes] =
        op < 0x4c
          ? [`OP_PUSHBYTES_${op}`, 0]
          : [`OP_PUSHDATA${op === 0x4c ? 1 : op === 0x4d ? 2 : 4}`, op === 0x4c ? 1 : op === 0x4d ? 2 : 4];
      let length = op < 0x4c ? op : 0;
      for (let b = 0; b < lengthBytes; b++) length += (script[i + b] ?? 0) * 256 ** b;
      i += lengthBytes;
      if (i + length > script.length) {
        parts.push(label, "<push past end>");
        break;
      }
      parts.push(label, Buffer.from(script.subarray(i, i + length)).toString("hex"));
      i += length;
    } else if (op === 0x00) parts.push("OP_0");
    else if (op === 0x4f) parts.push("OP_PUSHNUM_NEG1");
    else if (op >= 0x51 && op <= 0x60) parts.push(`OP_PUSHNUM_${op - 0x50}`);
    else parts.push(names[op] ?? `OP_UNKNOWN_${op}`);
  }
  return parts.join(" ");
}
