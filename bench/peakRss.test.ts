import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { peakRssMbByGroup } from "./peakRss.js";

describe.runIf(existsSync("/proc/self/status"))("peakRssMbByGroup", () => {
  it("reports this process's peak, at least what it holds now, under its group", () => {
    const held = Buffer.alloc(64 * 2 ** 20, 1);
    const groups = peakRssMbByGroup();
    const own = Object.entries(groups).find(([group]) => group.startsWith("bench process"));
    expect(own?.[1].processes).toBe(1);
    expect(own![1].maxMb).toBeGreaterThanOrEqual(Math.floor(process.memoryUsage().rss / 2 ** 20) - 1);
    expect(own![1].maxMb).toBeGreaterThan(64);
    held.fill(2);
  });

  it("reports a named process under its name, this one too", () => {
    const groups = peakRssMbByGroup({ "load orchestration": process.pid });
    expect(groups["load orchestration"]?.processes).toBe(1);
    expect(Object.keys(groups).some((group) => group.startsWith("bench process"))).toBe(false);
  });
});
