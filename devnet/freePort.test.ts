import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { freePort } from "./freePort.js";
import { isPortFree } from "./isPortFree.js";

describe("freePort / isPortFree", () => {
  it("returns a bindable port, reported taken while something listens on it", async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(0);
    expect(await isPortFree(port)).toBe(true);
    const server = createServer();
    await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
    try {
      expect(await isPortFree(port)).toBe(false);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
