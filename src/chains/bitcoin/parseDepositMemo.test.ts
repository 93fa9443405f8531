import { describe, expect, it } from "vitest";
import { bitcoinFamily } from "./bitcoinFamily.js";
import { parseDepositMemo } from "./parseDepositMemo.js";

const ORDER = `0x${"Ab".repeat(32)}`;
const ADDRESS = "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080";
const regtest = bitcoinFamily(["regtest"]).address.parse;
const memo = (text: string) => parseDepositMemo(Buffer.from(text, "latin1"), regtest);

describe("parseDepositMemo", () => {
  it("reads the order id, in lower case", () => {
    expect(memo(ORDER)).toEqual({ orderId: ORDER.toLowerCase() });
  });

  it("reads a depositor of the chain's network after it", () => {
    expect(memo(`${ORDER}|depositor=${ADDRESS.toUpperCase()}|`)).toEqual({
      orderId: ORDER.toLowerCase(),
      depositor: ADDRESS,
    });
    expect(memo(`${ORDER}|depositor=bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4|`)).toBeUndefined();
  });

  it("refuses anything else", () => {
    for (const text of ["", ORDER.slice(2), ORDER.slice(0, -1), `${ORDER}00`, ` ${ORDER}`, `${ORDER}|depositor=|`])
      expect(memo(text)).toBeUndefined();
  });
});
