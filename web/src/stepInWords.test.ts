import { describe, expect, it } from "vitest";
import { stepInWords } from "./stepInWords";

describe("stepInWords", () => {
  const events = [
    { status: "waiting", createdAt: "2026-11-28T10:00:00.000Z" },
    { status: "pending", createdAt: "2026-11-28T10:00:12.300Z" },
    { status: "submitted", createdAt: "2026-11-28T10:00:12.700Z" },
    { status: "success", createdAt: "2026-11-28T10:00:13.800Z" },
  ];

  it("says how long each step took since the one before", () => {
    expect(events.map((_, index) => stepInWords(events, index))).toEqual([
      undefined,
      "deposit confirmed after 12 s",
      "fill sent in 0.4 s",
      "filled in 1.1 s",
    ]);
  });

  it("names a failure and a refund", () => {
    const failed = [
      events[0],
      { status: "failure", createdAt: "2026-11-28T10:03:05.000Z" },
      { status: "refund", createdAt: "2026-11-28T10:03:07.000Z" },
    ];
    expect(stepInWords(failed, 1)).toBe("failed after 3 min 5 s");
    expect(stepInWords(failed, 2)).toBe("refunded in 2.0 s");
  });
});
