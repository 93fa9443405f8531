import { describe, expect, it } from "vitest";
import { durationInWords } from "./durationInWords";

describe("durationInWords", () => {
  it("says seconds with a tenth under ten seconds, then whole units", () => {
    expect(durationInWords(0)).toBe("0.0 s");
    expect(durationInWords(1_140)).toBe("1.1 s");
    expect(durationInWords(9_949)).toBe("9.9 s");
    expect(durationInWords(42_400)).toBe("42 s");
    expect(durationInWords(185_000)).toBe("3 min 5 s");
    expect(durationInWords(180_000)).toBe("3 min");
    expect(durationInWords(7_800_000)).toBe("2 h 10 min");
    expect(durationInWords(3 * 86_400_000 + 4 * 3_600_000)).toBe("3 d 4 h");
  });

  it("reads a clock that went backwards as no time", () => {
    expect(durationInWords(-5)).toBe("0.0 s");
  });
});
