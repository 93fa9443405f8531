import { describe, expect, it } from "vitest";
import { scriptAsm } from "./scriptAsm.js";

const asm = (hex: string) => scriptAsm(Buffer.from(hex, "hex"));

describe("scriptAsm", () => {
  it("prints push opcodes the way Esplora does", () => {
    expect(asm(`76a914${"11".repeat(20)}88ac`)).toBe(
      `OP_DUP OP_HASH160 OP_PUSHBYTES_20 ${"11".repeat(20)} OP_EQUALVERIFY OP_CHECKSIG`,
    );
    expect(asm(`5120${"22".repeat(32)}`)).toBe(`OP_PUSHNUM_1 OP_PUSHBYTES_32 ${"22".repeat(32)}`);
    expect(asm(`6a4c51${"00".repeat(81)}`)).toBe(`OP_RETURN OP_PUSHDATA1 ${"00".repeat(81)}`);
    expect(asm("004f")).toBe("OP_0 OP_PUSHNUM_NEG1");
    expect(asm("")).toBe("");
  });

  it("does not read past a truncated push", () => {
    expect(asm("6a05aa")).toBe("OP_RETURN OP_PUSHBYTES_5 <push past end>");
  });
});
