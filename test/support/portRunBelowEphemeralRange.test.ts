import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isPortFree } from "../../devnet/isPortFree.js";
import { portRunBelowEphemeralRange } from "./portRunBelowEphemeralRange.js";

describe("portRunBelowEphemeralRange", () => {
  it("gives consecutive free ports below the kernel's ephemeral range", async () => {
    const low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    for (let i = 0; i < 20; i++) {
      const first = await portRunBelowEphemeralRange(4);
      expect(first).toBeGreaterThanOrEqual(20_000);
      expect(first + 4).toBeLessThanOrEqual(low);
      for (let port = first; port < first + 4; port++) expect(await isPortFree(port)).toBe(true);
    }
  });
});
