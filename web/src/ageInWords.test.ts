import { describe, expect, it } from "vitest";
import { ageInWords } from "./ageInWords";

describe("ageInWords", () => {
  const now = Date.parse("2026-11-28T12:00:00Z");
  it("says how long ago in the largest whole unit", () => {
    expect(ageInWords("2026-11-28T11:59:59.500Z", now)).toBe("just now");
    expect(ageInWords("2026-11-28T11:59:48Z", now)).toBe("12 s ago");
    expect(ageInWords("2026-11-28T11:57:00Z", now)).toBe("3 min ago");
    expect(ageInWords("2026-11-28T09:00:00Z", now)).toBe("3 h ago");
    expect(ageInWords("2026-11-25T12:00:00Z", now)).toBe("3 d ago");
  });
});
