import { describe, expect, it } from "vitest";
import { buildBlock, difficultyOf, regtestBits } from "./buildBlock.js";

describe("buildBlock", () => {
  it("makes distinct blocks at the same height and second from distinct tags", () => {
    const template = { prevHash: undefined, height: 1, timestamp: 1_800_000_000, transactions: [] };
    const a = buildBlock({ ...template, coinbase: { script: new Uint8Array([0x51]), value: 1n, tag: 1 } });
    const b = buildBlock({ ...template, coinbase: { script: new Uint8Array([0x51]), value: 1n, tag: 2 } });
    expect(a.getId()).not.toBe(b.getId());
    expect(a.checkTxRoots()).toBe(true);
  });

  it("reports regtest's difficulty as Esplora does", () => {
    expect(difficultyOf(0x1d00ffff)).toBe(1);
    expect(difficultyOf(regtestBits)).toBeCloseTo(4.656542373906925e-10, 20);
  });
});
