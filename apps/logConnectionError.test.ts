import pino from "pino";
import { describe, expect, it } from "vitest";
import { logConnectionError } from "./logConnectionError.js";

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: "debug" }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

const terminated = Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" });

describe("logConnectionError", () => {
  it("warns on one line with the code and reason, not the pg client", () => {
    const { logger, lines } = capture();
    logConnectionError(logger)(terminated, "worker crossfill-fill");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 40,
      source: "worker crossfill-fill",
      code: "57P01",
      reason: "terminating connection due to administrator command",
    });
    expect(JSON.stringify(lines[0])).not.toContain("client");
  });

  it("only debugs while the process is stopping", () => {
    const { logger, lines } = capture();
    let stopping = false;
    const log = logConnectionError(logger, () => stopping);
    stopping = true;
    log(terminated);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 20, source: "postgres pool" });
  });
});
