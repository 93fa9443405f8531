import { describe, expect, it } from "vitest";
import { MEMO_PROGRAM_ID, memoInstruction, parseOrderMemo } from "./memoInstruction.js";

const orderId = `0x${"ab".repeat(32)}`;

describe("memoInstruction", () => {
  it("carries the text as UTF-8 under Memo v2, with no accounts", () => {
    const instruction = memoInstruction(orderId);
    expect(instruction.programId.toBase58()).toBe(MEMO_PROGRAM_ID);
    expect(instruction.keys).toEqual([]);
    expect(instruction.data.toString("utf8")).toBe(orderId);
  });
});

describe("parseOrderMemo", () => {
  it("reads an order id in lower case, and nothing else", () => {
    expect(parseOrderMemo(orderId)).toBe(orderId);
    expect(parseOrderMemo(orderId.toUpperCase().replace("0X", "0x"))).toBe(orderId);
    for (const refused of ["", orderId.slice(0, -1), `${orderId}0`, ` ${orderId}`, "ab".repeat(32), "(unparseable)"])
      expect(parseOrderMemo(refused), refused).toBeUndefined();
  });
});
