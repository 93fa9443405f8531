import { describe, expect, it } from "vitest";
import { failReasonAtEdge } from "./failReasons.js";

describe("failReasonAtEdge", () => {
  it("shows the recorded reason, else UNKNOWN, on failure and refund", () => {
    expect(failReasonAtEdge("failure", "EXECUTION_REVERTED")).toBe("EXECUTION_REVERTED");
    expect(failReasonAtEdge("refund", "DOUBLE_SPEND")).toBe("DOUBLE_SPEND");
    expect(failReasonAtEdge("failure", null)).toBe("UNKNOWN");
    expect(failReasonAtEdge("refund", undefined)).toBe("UNKNOWN");
  });

  it("shows N/A on every other status", () => {
    for (const status of ["waiting", "depositing", "pending", "submitted", "success"])
      expect(failReasonAtEdge(status, "UNKNOWN")).toBe("N/A");
  });
});
