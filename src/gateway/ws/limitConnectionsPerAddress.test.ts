import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { limitConnectionsPerAddress } from "./limitConnectionsPerAddress.js";
import { routeUpgrades } from "./routeUpgrades.js";

describe("limitConnectionsPerAddress", () => {
  const wss = new WebSocketServer({ noServer: true });
  const server = createServer();
  let url: string;
  beforeAll(async () => {
    const echo = (
      request: Parameters<WebSocketServer["handleUpgrade"]>[0],
      socket: Parameters<WebSocketServer["handleUpgrade"]>[1],
      head: Buffer,
    ) => wss.handleUpgrade(request, socket, head, (ws) => wss.emit("connection", ws, request));
    // the "address" is a header here, so one test process can be several clients
    const limited = limitConnectionsPerAddress(echo, {
      max: 2,
      clientAddress: (request) => String(request.headers["x-client"]),
    });
    server.on("upgrade", routeUpgrades({ "/ws": limited }));
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;
  });
  afterAll(async () => {
    for (const client of wss.clients) client.terminate();
    wss.close();
    await new Promise((resolve) => server.close(resolve));
  });

  const open = async (client: string) => {
    const socket = new WebSocket(url, { headers: { "x-client": client } });
    const outcome = await Promise.race([
      once(socket, "open").then(() => "open"),
      once(socket, "unexpected-response").then(([, response]) => `refused ${response.statusCode}`),
    ]);
    return { socket, outcome };
  };

  it("refuses the connection past the cap with 429, per address, and counts down as connections close", async () => {
    const [a1, a2] = [await open("a"), await open("a")];
    expect([a1.outcome, a2.outcome]).toEqual(["open", "open"]);
    expect((await open("a")).outcome).toBe("refused 429");
    expect((await open("b")).outcome).toBe("open");
    a1.socket.close();
    await once(a1.socket, "close");
    await expect
      .poll(async () => {
        const again = await open("a");
        if (again.outcome === "open") again.socket.close();
        return again.outcome;
      })
      .toBe("open");
  });
});
