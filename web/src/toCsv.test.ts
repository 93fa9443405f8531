import { describe, expect, it } from "vitest";
import { toCsv } from "./toCsv";

describe("toCsv", () => {
  it("joins cells with commas and rows with CRLF, quoting commas, quotes and line breaks", () => {
    expect(
      toCsv([
        ["id", "note"],
        ["0x1", 'say "hi", then\nleave'],
        [3, null],
      ]),
    ).toBe('id,note\r\n0x1,"say ""hi"", then\nleave"\r\n3,\r\n');
  });

  it("defuses cells a spreadsheet would run as formulas", () => {
    expect(toCsv([["=HYPERLINK(1)", "+1", "-2", "@x", "a=b"]])).toBe("'=HYPERLINK(1),'+1,'-2,'@x,a=b\r\n");
  });
});
