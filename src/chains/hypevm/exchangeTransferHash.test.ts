import { describe, expect, it } from "vitest";
import { exchangeTransferHash } from "./exchangeTransferHash.js";

describe("exchangeTransferHash", () => {
  it("is the same for r and s written with or without leading zeros, and differs with v", () => {
    const r = `0x00${"1".repeat(62)}` as const;
    const s = `0x${"2".repeat(64)}` as const;
    const hash = exchangeTransferHash({ r, s, v: 27 });
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(exchangeTransferHash({ r: `0x${"1".repeat(62)}`, s, v: 27 })).toBe(hash);
    expect(exchangeTransferHash({ r, s, v: 28 })).not.toBe(hash);
  });
});
