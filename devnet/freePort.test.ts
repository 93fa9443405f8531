import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { freePort } from "./freePort.js";
import { isPortFree } from "./isPortFree.js";

describe("freePort / isPortFree", () => {
  it("returns a bindable port, reported taken while something listens on it", async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(0);
    expect(await isPortFree(port)).toBe(true);
    // Connections are dropped at once: another test's client probing a port it once had must not hold close() open.
    const server = createServer((socket) => socket.destroy());
    await new Promise<void>((listening, failed) => {
      server.once("error", failed);
      server.listen(port, "127.0.0.1", listening);
    });
    try {
      expect(await isPortFree(port)).toBe(false);
    } finally {
      await new Promise((closed) => server.close(closed));
    }
  });
});
