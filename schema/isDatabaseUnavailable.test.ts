import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./isDatabaseUnavailable.js";

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe("isDatabaseUnavailable", () => {
  it("recognises unreachable, restarting and full servers, and nothing else", () => {
    expect(isDatabaseUnavailable(withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([withCode("refused", "ECONNREFUSED")], "connect failed"))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("timeout exceeded when trying to connect"))).toBe(true);
    for (const code of ["57P01", "57P03", "08006", "08P01", "53300"])
      expect(isDatabaseUnavailable(withCode("server says no", code))).toBe(true);
    expect(isDatabaseUnavailable(withCode("duplicate key value", "23505"))).toBe(false);
    expect(isDatabaseUnavailable(withCode("invalid byte sequence", "22021"))).toBe(false);
    expect(isDatabaseUnavailable("ECONNREFUSED")).toBe(false);
  });
});
