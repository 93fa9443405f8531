import { describe, expect, it } from "vitest";
import { InvalidInputError, RateLimitedError } from "../../domain/errors.js";
import { errorBody } from "./errorBody.js";

describe("errorBody", () => {
  it("answers domain errors with their status and code, and a 429 with its retry headers", () => {
    expect(errorBody(new InvalidInputError("INVALID_INPUT", "amount: required"))).toEqual({
      status: 400,
      body: { message: "amount: required", errorCode: "INVALID_INPUT" },
      headers: {},
    });
    const limited = errorBody(
      new RateLimitedError("slow down", { retryAfterSeconds: 3, limit: 5, windowSeconds: 1, policy: "price" }),
    );
    expect(limited).toMatchObject({ status: 429, body: { errorCode: "RATE_LIMITED" } });
    expect(limited.headers).toEqual({
      "Retry-After": "3",
      RateLimit: "limit=5, remaining=0, reset=3",
      "RateLimit-Policy": "5;w=1",
    });
  });

  it("answers an unreachable database 503 SERVICE_UNAVAILABLE without its details, anything else 500", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 10.1.2.3:5432"), { code: "ECONNREFUSED" });
    expect(errorBody(refused)).toEqual({
      status: 503,
      body: { message: "the database is unavailable; retry shortly", errorCode: "SERVICE_UNAVAILABLE" },
      headers: {},
    });
    expect(errorBody(new Error("column x does not exist"))).toEqual({
      status: 500,
      body: { message: "Internal error; it has been logged", errorCode: "UNKNOWN_ERROR" },
      headers: {},
    });
  });
});
