import { describe, expect, it } from "vitest";
import { ACCEPTED_UNUSED_QUOTE_FIELDS, misspelledQuoteField } from "./misspelledQuoteField.js";

const base = { user: "0x1", originChainId: 1, destinationChainId: 2, amount: "1", tradeType: "EXACT_INPUT" };

describe("misspelledQuoteField", () => {
  it("names a near miss of a field the quote acts on and the field meant", () => {
    expect(misspelledQuoteField({ ...base, recipent: "0x3" })).toEqual({ field: "recipent", meant: "recipient" });
    expect(misspelledQuoteField({ ...base, refundto: "0x3" })).toEqual({ field: "refundto", meant: "refundTo" });
    expect(misspelledQuoteField({ ...base, Recipient: "0x3" })).toEqual({ field: "Recipient", meant: "recipient" });
    expect(misspelledQuoteField({ ...base, slipageTolerance: "50" })).toEqual({
      field: "slipageTolerance",
      meant: "slippageTolerance",
    });
    expect(misspelledQuoteField({ ...base, usr: "0x1" })).toEqual({ field: "usr", meant: "user" });
  });

  it("passes the spec's fields, the official client's fields and unknown fields that are no near miss", () => {
    expect(misspelledQuoteField({ ...base, recipient: "0x3", refundTo: "0x4", txs: [] })).toBeUndefined();
    for (const field of ACCEPTED_UNUSED_QUOTE_FIELDS)
      expect(misspelledQuoteField({ ...base, [field]: 1 })).toBeUndefined();
    expect(misspelledQuoteField({ ...base, to: "0x3", colour: "blue", myTrackingId: "x" })).toBeUndefined();
  });

  it("reads only plain objects", () => {
    expect(misspelledQuoteField(null)).toBeUndefined();
    expect(misspelledQuoteField(["recipent"])).toBeUndefined();
    expect(misspelledQuoteField("recipent")).toBeUndefined();
  });
});
