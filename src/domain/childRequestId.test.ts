import { describe, expect, it } from "vitest";
import { childRequestId } from "./childRequestId.js";

describe("childRequestId", () => {
  const parent = `0x${"11".repeat(32)}`;
  const deposit = { chainId: 31337, txHash: `0x${"22".repeat(32)}`, position: 3, blockHash: `0x${"33".repeat(32)}` };

  it("is a request id that depends on the parent and the deposit's place, not on the block it was mined in", () => {
    const id = childRequestId(parent, deposit);
    expect(id).toMatch(/^0x[0-9a-f]{64}$/);
    expect(childRequestId(parent, { ...deposit })).toBe(id);
    const minedElsewhere = { ...deposit, blockHash: `0x${"34".repeat(32)}` };
    expect(childRequestId(parent, minedElsewhere)).toBe(id);
    for (const other of [
      childRequestId(`0x${"12".repeat(32)}`, deposit),
      childRequestId(parent, { ...deposit, chainId: 31338 }),
      childRequestId(parent, { ...deposit, position: 4 }),
    ]) {
      expect(other).not.toBe(id);
    }
  });
});
