import { describe, expect, it } from "vitest";
import type { ChainAdapter } from "./adapter.js";
import { everyRole } from "./everyRole.js";

describe("everyRole", () => {
  it("gives the one adapter object as each of the four roles", () => {
    const adapter = { chain: { id: 7 } } as unknown as ChainAdapter;
    expect(everyRole(adapter)).toEqual({ quoter: adapter, deposits: adapter, solver: adapter, refunder: adapter });
    expect(Object.values(everyRole(adapter)).every((role) => role === adapter)).toBe(true);
  });
});
