import { describe, expect, it } from "vitest";
import { shortHash } from "./shortHash";

describe("shortHash", () => {
  it("keeps the ends of a hash or address, the 0x prefix aside", () => {
    expect(shortHash(`0x${"ab".repeat(32)}`)).toBe("0xababab…ababab");
    expect(shortHash("0x70997970C51812dc3A010C7d01b50e0d17dc79C8", 4)).toBe("0x7099…79C8");
    expect(shortHash("bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080")).toBe("bcrt1q…ygt080");
  });

  it("leaves a short value whole", () => {
    expect(shortHash("0x1234")).toBe("0x1234");
    expect(shortHash("abcdefghijklm")).toBe("abcdefghijklm");
  });
});
