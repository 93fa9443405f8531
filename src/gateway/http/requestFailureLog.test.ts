import pino from "pino";
import { describe, expect, it } from "vitest";
import { InvalidInputError, TransientError } from "../../domain/errors.js";
import { createRequestFailureLog } from "./requestFailureLog.js";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}
const stale = (currency: string) =>
  new TransientError("PRICE_FETCH_FAILED", `no fresh price of ${currency} (pyth: stale); retry`, undefined, {
    currency,
  });

describe("createRequestFailureLog", () => {
  it("logs a retryable 503 once per code and currency a period, as a warning without a stack", () => {
    let now = 0;
    const { logger, lines } = capture();
    const log = createRequestFailureLog(logger, { periodMs: 60_000, now: () => now });
    for (let i = 0; i < 50; i += 1) log(stale("ETH"), { path: "/quote/v2" });
    log(stale("BTC"), { path: "/price" });
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        errorCode: "PRICE_FETCH_FAILED",
        subject: "ETH",
        reason: "no fresh price of ETH (pyth: stale); retry",
        path: "/quote/v2",
        notLoggedSinceLast: 0,
      }),
      expect.objectContaining({ level: 40, subject: "BTC", path: "/price", notLoggedSinceLast: 0 }),
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/stack|"err"/);

    now = 59_999;
    log(stale("ETH"), { path: "/quote" });
    expect(lines).toHaveLength(2);
    now = 60_000;
    log(stale("ETH"), { path: "/quote" });
    expect(lines[2]).toMatchObject({ level: 40, subject: "ETH", path: "/quote", notLoggedSinceLast: 50 });
  });

  it("keeps the cause's message of a wrapped failure, never its stack", () => {
    const { logger, lines } = capture();
    const log = createRequestFailureLog(logger);
    const cause = new Error("connect ECONNREFUSED 10.0.0.5:443");
    log(
      new TransientError("PRICE_FETCH_FAILED", "the prices of ETH, USDC could not be fetched; retry", cause, {
        currencies: "ETH, USDC",
      }),
      { graphql: true },
    );
    expect(lines).toEqual([
      expect.objectContaining({ level: 40, subject: "ETH, USDC", cause: "connect ECONNREFUSED 10.0.0.5:443" }),
    ]);
    expect(JSON.stringify(lines)).not.toContain("stack");
  });

  it("logs an internal error with its stack every time, and a caller's 4xx not at all", () => {
    const { logger, lines } = capture();
    const log = createRequestFailureLog(logger);
    log(new InvalidInputError("INVALID_INPUT", "bad amount"), { path: "/quote" });
    expect(lines).toEqual([]);
    log(new Error("boom"), { path: "/quote" });
    log(new Error("boom"), { path: "/quote" });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: 50, path: "/quote", msg: "request failed" });
    expect((lines[0]!.err as { stack: string }).stack).toContain("boom");
  });
});
