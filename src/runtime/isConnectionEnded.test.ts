import { describe, expect, it } from "vitest";
import { isConnectionEnded } from "./isConnectionEnded.js";

describe("isConnectionEnded", () => {
  it("recognises a session ended by the server", () => {
    const terminated = Object.assign(new Error("terminating connection due to administrator command"), {
      code: "57P01",
    });
    expect(isConnectionEnded(terminated)).toBe(true);
    expect(isConnectionEnded(new Error("Connection terminated unexpectedly"))).toBe(true);
  });

  it("leaves every other error alone", () => {
    expect(isConnectionEnded(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBe(false);
    expect(isConnectionEnded(new Error("Connection terminated by a bug of ours, maybe"))).toBe(false);
    expect(isConnectionEnded("57P01")).toBe(false);
  });
});
