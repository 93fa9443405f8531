import { describe, expect, it } from "vitest";
import { InvalidInputError, RateLimitedError } from "../../domain/errors.js";
import { domainGraphqlError } from "./domainGraphqlError.js";

describe("domainGraphqlError", () => {
  it("answers the domain error's message and code, its details only when it has some, and where it happened", () => {
    const limited = domainGraphqlError(
      new RateLimitedError("slow down", { retryAfterSeconds: 2, limit: 5, windowSeconds: 1, policy: "graphql" }),
    );
    expect(limited.toJSON()).toEqual({
      message: "slow down",
      extensions: {
        code: "RATE_LIMITED",
        details: { retryAfterSeconds: 2, limit: 5, windowSeconds: 1, policy: "graphql" },
      },
    });
    const bad = domainGraphqlError(new InvalidInputError("INVALID_INPUT", "id must be hex"), { path: ["request"] });
    expect(bad.toJSON()).toEqual({
      message: "id must be hex",
      path: ["request"],
      extensions: { code: "INVALID_INPUT" },
    });
  });
});
