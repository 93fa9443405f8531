import { describe, expect, it } from "vitest";
import { statsWindow } from "./statsWindow";

const NOW = Date.parse("2026-11-23T10:15:30Z");
const none = { from: "", to: "" };

describe("statsWindow", () => {
  it("ends a preset at the next whole minute, hourly up to two days, daily beyond", () => {
    expect(statsWindow("24h", none, NOW)).toEqual({
      from: new Date("2026-11-22T10:16:00Z"),
      to: new Date("2026-11-23T10:16:00Z"),
      groupBy: "HOUR",
    });
    expect(statsWindow("30d", none, NOW)).toMatchObject({ from: new Date("2026-10-24T10:16:00Z"), groupBy: "DAY" });
  });

  it("takes custom dates as whole UTC days, both included; refuses reversed, missing or over-long ranges", () => {
    expect(statsWindow("custom", { from: "2026-11-01", to: "2026-11-02" }, NOW)).toEqual({
      from: new Date("2026-11-01T00:00:00Z"),
      to: new Date("2026-11-03T00:00:00Z"),
      groupBy: "HOUR",
    });
    expect(statsWindow("custom", { from: "2026-11-01", to: "2026-11-10" }, NOW)?.groupBy).toBe("DAY");
    expect(statsWindow("custom", { from: "2026-11-02", to: "2026-11-01" }, NOW)).toBeUndefined();
    expect(statsWindow("custom", { from: "", to: "2026-11-01" }, NOW)).toBeUndefined();
    expect(statsWindow("custom", { from: "2025-01-01", to: "2026-11-01" }, NOW)).toBeUndefined();
  });
});
