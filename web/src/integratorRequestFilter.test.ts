import { describe, expect, it } from "vitest";
import { EMPTY_FILTER_FORM, integratorRequestFilter } from "./integratorRequestFilter";

describe("integratorRequestFilter", () => {
  it("scopes an empty form to the signed-in key's integrator, and nothing else", () => {
    expect(integratorRequestFilter(EMPTY_FILTER_FORM)).toEqual({ myIntegrator: true, includeChildRequests: true });
  });

  it("maps each filled field to the listing's filter, lists split on commas", () => {
    const filter = integratorRequestFilter({
      statuses: ["success", "refund"],
      originChainId: "31338",
      destinationChainId: "31339",
      currencyIn: "ETH, usdc",
      currencyOut: " ",
      from: "2026-11-01T00:00",
      to: "",
      referrer: "acme-web",
      term: " 0xabc ",
      apiKey: "key_b",
    });
    expect(filter).toEqual({
      myIntegrator: true,
      includeChildRequests: true,
      apiKey: ["key_b"],
      status: ["success", "refund"],
      originChainId: [31338],
      destinationChainId: [31339],
      currencyInSymbol: ["ETH", "usdc"],
      referrer: ["acme-web"],
      term: "0xabc",
      createdFrom: new Date("2026-11-01T00:00").toISOString(),
    });
  });
});
