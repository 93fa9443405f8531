import { describe, expect, it } from "vitest";
import { bitcoinFamily } from "./bitcoinFamily.js";
import { encodeDepositMemo } from "./encodeDepositMemo.js";
import { parseDepositMemo } from "./parseDepositMemo.js";

describe("encodeDepositMemo", () => {
  it("writes the order id as parseDepositMemo reads it", () => {
    const orderId = `0x${"Ab".repeat(32)}`;
    const memo = encodeDepositMemo(orderId);
    expect(memo).toHaveLength(66);
    expect(parseDepositMemo(memo, bitcoinFamily(["regtest"]).address.parse)).toEqual({
      orderId: orderId.toLowerCase(),
    });
  });

  it("refuses anything but a 32-byte hex id", () => {
    expect(() => encodeDepositMemo("0x1234")).toThrow("not a request or order id");
  });
});
