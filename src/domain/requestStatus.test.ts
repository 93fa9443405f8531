import { describe, expect, it } from "vitest";
import { REQUEST_STATUSES, canTransition } from "./requestStatus.js";

describe("request status transitions", () => {
  it("allows the happy path and refunds of failures", () => {
    expect(canTransition("waiting", "pending")).toBe(true);
    expect(canTransition("pending", "submitted")).toBe(true);
    expect(canTransition("submitted", "success")).toBe(true);
    expect(canTransition("failure", "refund")).toBe(true);
  });

  it("refuses to leave a final status or go backwards", () => {
    for (const to of REQUEST_STATUSES) {
      expect(canTransition("success", to)).toBe(false);
      expect(canTransition("refund", to)).toBe(false);
    }
    expect(canTransition("submitted", "pending")).toBe(false);
    expect(canTransition("pending", "waiting")).toBe(false);
    expect(canTransition("waiting", "success")).toBe(false);
  });
});
