import { describe, expect, it } from "vitest";
import { emptyFilter } from "../../schema/requestFilter.js";
import { InvalidInputError } from "../domain/errors.js";
import { hidePrivateChains } from "./hidePrivateChains.js";

const A = "6f1c2a8e-2f7d-4c1b-9a51-0c2b8f3e7d10";
const B = "0b7e9d44-5c3a-4e8f-8d21-7a6c5b4e3f20";
const registry = {
  chains: [{ id: 1 }, { id: 2, privateId: A }, { id: 3, privateId: B.toUpperCase() }] as never,
};

describe("hidePrivateChains", () => {
  it("leaves out every private chain the client does not name, on either side of a request", () => {
    expect(hidePrivateChains(emptyFilter(), registry, []).conditions).toEqual([
      { field: "chainId", negate: true, values: [2, 3] },
    ]);
    expect(hidePrivateChains(emptyFilter(), registry, [B]).conditions).toEqual([
      { field: "chainId", negate: true, values: [2] },
    ]);
  });

  it("adds nothing when every private chain is named, or there is none", () => {
    const filter = emptyFilter();
    expect(hidePrivateChains(filter, registry, [A.toUpperCase(), B])).toBe(filter);
    expect(hidePrivateChains(filter, { chains: [{ id: 1 }] as never }, [])).toBe(filter);
  });

  it("refuses a UUID that names no private chain, naming the parameter", () => {
    const stranger = "11111111-2222-4333-8444-555555555555";
    expect(() => hidePrivateChains(emptyFilter(), registry, [A, stranger], "filter.privateChainsToInclude")).toThrow(
      new InvalidInputError("INVALID_INPUT", `filter.privateChainsToInclude: ${stranger} names no private chain`),
    );
  });
});
