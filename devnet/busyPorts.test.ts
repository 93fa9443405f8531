import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { busyPorts } from "./busyPorts.js";
import { freePort } from "./freePort.js";

describe("busyPorts", () => {
  it("names each taken port with the variable that moves it, and passes free ones and port 0", async () => {
    const server = createServer();
    const taken = await new Promise<number>((resolve) =>
      server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)),
    );
    try {
      const free = await freePort();
      expect(
        await busyPorts([
          { what: "the API", variable: "PORT", host: "127.0.0.1", port: taken },
          { what: "the indexer", variable: "INDEXER_PORT", host: "127.0.0.1", port: free },
          { what: "any", variable: "X", host: "127.0.0.1", port: 0 },
        ]),
      ).toEqual([`the API: port ${taken} on 127.0.0.1 is in use (set PORT= to another port)`]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
