import { describe, expect, it } from "vitest";
import { parseHeaderLine, parseWebhookHeaders } from "./parseWebhookHeaders.js";

describe("parseWebhookHeaders", () => {
  it("keeps valid custom headers", () => {
    expect(
      parseWebhookHeaders([parseHeaderLine("Authorization: Bearer abc"), parseHeaderLine("X-Team:  ops ")]),
    ).toEqual({ Authorization: "Bearer abc", "X-Team": "ops" });
  });

  it.each([
    [{ "X-Signature-SHA256": "forged" }, "set by the delivery"],
    [{ host: "evil" }, "set by the delivery"],
    [{ "Bad Name": "x" }, "invalid header name"],
    [{ "X-Split": "a\r\nInjected: 1" }, "invalid value"],
  ])("refuses %j", (headers, message) => {
    expect(() => parseWebhookHeaders(headers)).toThrow(message);
  });

  it("refuses a line without a colon", () => {
    expect(() => parseHeaderLine("Authorization")).toThrow("Name: value");
  });
});
