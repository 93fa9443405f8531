import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createStatusBus } from "../../events/createStatusBus.js";
import { createStatusFanout } from "../../events/createStatusFanout.js";
import type { StatusUpdate } from "../../events/statusUpdate.js";
import { UnauthorizedError } from "../../domain/errors.js";
import { createStatusFeed } from "./createStatusFeed.js";
import { routeUpgrades } from "./routeUpgrades.js";

const ID_A = `0x${"a".repeat(64)}`;
const ID_B = `0x${"b".repeat(64)}`;
const WALLET = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";

function update(
  requestId: string,
  status: StatusUpdate["body"]["data"]["status"],
  wallets = [WALLET],
  chainIds = [31338, 31339],
): StatusUpdate {
  return {
    eventId: String(Math.random()),
    requestId,
    wallets,
    chainIds,
    apiKeyId: null,
    apiKeyIntegrator: null,
    body: {
      event: "request.status.updated",
      timestamp: 1,
      data: {
        status,
        inTxHashes: [],
        txHashes: [],
        updatedAt: 1,
        originChainId: chainIds[0],
        destinationChainId: chainIds[1],
        depositAddress: null,
        requestId,
        referrer: null,
        details: null,
        failReason: "N/A",
        refundFailReason: "N/A",
      },
    },
  };
}

/** A real `ws` client that queues what it receives. */
async function connect(url: string, apiKey?: string) {
  const socket = new WebSocket(url, apiKey ? { headers: { "x-api-key": apiKey } } : {});
  const inbox: any[] = [];
  const waiters: Array<() => void> = [];
  socket.on("message", (data) => {
    inbox.push(JSON.parse(data.toString()));
    for (const wake of waiters.splice(0)) wake();
  });
  await once(socket, "open");
  return {
    socket,
    send: (message: unknown) => socket.send(typeof message === "string" ? message : JSON.stringify(message)),
    async next(timeoutMs = 2_000): Promise<any> {
      const until = Date.now() + timeoutMs;
      while (inbox.length === 0) {
        if (Date.now() > until) throw new Error("no message");
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return inbox.shift();
    },
    inbox,
  };
}

describe("websocket status feed", () => {
  const bus = createStatusBus();
  const fanout = createStatusFanout(bus);
  const KEYS: Record<string, { integrator: string }> = {
    cf_acme: { integrator: "acme" },
    cf_acme_2: { integrator: "acme" },
    cf_other: { integrator: "other" },
  };
  const authenticate = async (key: string) => {
    if (key === "cf_db_down") throw new Error("connect ECONNREFUSED postgres://admin:hunter2@db");
    if (!KEYS[key]) throw new UnauthorizedError("x-api-key is not a known API key");
    return KEYS[key];
  };
  const feed = createStatusFeed({ fanout, logger: pino({ level: "silent" }), maxSubscriptions: 3, authenticate });
  const server = createServer((_, response) => response.end());
  let url: string;
  beforeAll(async () => {
    server.on("upgrade", routeUpgrades({ "/ws": feed.handleUpgrade }));
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;
  });
  afterAll(async () => {
    await feed.close();
    fanout.close();
    await new Promise((resolve) => server.close(resolve));
    await bus.close();
  });

  it("sends the webhook body of every later change of a subscribed request, and nothing after unsubscribe", async () => {
    const client = await connect(url);
    client.send({ type: "subscribe", event: "request.status.updated", filters: { id: ID_A } });
    expect(await client.next()).toEqual({ type: "subscribed", event: "request.status.updated", filters: { id: ID_A } });

    await bus.publish(update(ID_B, "pending"));
    await bus.publish(update(ID_A, "pending"));
    await bus.publish(update(ID_A, "submitted"));
    const first = await client.next();
    expect(first).toEqual(update(ID_A, "pending").body);
    expect((await client.next()).data.status).toBe("submitted");

    client.send({ type: "unsubscribe", event: "request.status.updated", filters: { id: ID_A } });
    expect(await client.next()).toMatchObject({ type: "unsubscribed" });
    await bus.publish(update(ID_A, "success"));
    client.send({ type: "ping" });
    expect(await client.next()).toMatchObject({ type: "pong", timestamp: expect.any(Number) });
    expect(client.inbox).toEqual([]);
    client.socket.close();
  });

  it("filters by wallet or chain, and sends an update once when several filters match", async () => {
    const client = await connect(url);
    client.send({
      type: "subscribe",
      event: "request.status.updated",
      filters: { wallet: WALLET.toUpperCase().replace("0X", "0x") },
    });
    client.send({ type: "subscribe", event: "request.status.updated", filters: { chainId: 31339 } });
    await client.next();
    await client.next();
    await bus.publish(update(ID_A, "pending"));
    await bus.publish(update(ID_B, "pending", ["0x0000000000000000000000000000000000000001"], [5, 6]));
    expect((await client.next()).data.requestId).toBe(ID_A);
    client.send({ type: "ping" });
    expect(await client.next()).toMatchObject({ type: "pong" });
    expect(client.inbox).toEqual([]);
    client.socket.close();
  });

  it("answers malformed or unknown messages with an error and keeps the connection", async () => {
    const client = await connect(url);
    client.send("not json");
    expect(await client.next()).toMatchObject({
      type: "error",
      errorCode: "INVALID_INPUT",
      message: "message is not JSON",
    });
    client.send({ type: "subscribe", event: "request.created", filters: { id: ID_A } });
    expect(await client.next()).toMatchObject({ type: "error", errorCode: "INVALID_INPUT" });
    client.send({ type: "subscribe", event: "request.status.updated", filters: { id: "0x1234" } });
    expect((await client.next()).message).toMatch(/32-byte hex/);
    client.send({ type: "subscribe", event: "request.status.updated", filters: { id: ID_A, wallet: WALLET } });
    expect(await client.next()).toMatchObject({ type: "error" });
    for (const chainId of [1, 2, 3])
      client.send({ type: "subscribe", event: "request.status.updated", filters: { chainId } });
    for (let i = 0; i < 3; i++) expect(await client.next()).toMatchObject({ type: "subscribed" });
    client.send({ type: "subscribe", event: "request.status.updated", filters: { chainId: 4 } });
    expect((await client.next()).message).toMatch(/at most 3 subscriptions/);
    client.send({ type: "ping" });
    expect(await client.next()).toMatchObject({ type: "pong" });
    client.socket.close();
  });

  it("closes a connection that sends a frame over 4 KiB, and refuses upgrades on other paths", async () => {
    const client = await connect(url);
    client.send({ type: "ping", padding: "x".repeat(5_000) });
    const [code] = await once(client.socket, "close");
    expect(code).toBe(1009);

    const stray = new WebSocket(url.replace("/ws", "/nope"));
    const [error] = await once(stray, "error");
    expect(String(error)).toMatch(/404/);
  });

  it("closes a connection that stops answering protocol pings, and keeps one that answers", async () => {
    const quick = createStatusFeed({ fanout, logger: pino({ level: "silent" }), heartbeatMs: 100, authenticate });
    const quickServer = createServer((_, response) => response.end());
    quickServer.on("upgrade", routeUpgrades({ "/ws": quick.handleUpgrade }));
    quickServer.listen(0, "127.0.0.1");
    await once(quickServer, "listening");
    const quickUrl = `ws://127.0.0.1:${(quickServer.address() as AddressInfo).port}/ws`;
    try {
      const silent = new WebSocket(quickUrl, { autoPong: false });
      const answering = new WebSocket(quickUrl);
      await Promise.all([once(silent, "open"), once(answering, "open")]);
      const [code] = await once(silent, "close");
      expect(code).toBe(1006);
      expect(answering.readyState).toBe(WebSocket.OPEN);
      answering.close();
    } finally {
      await quick.close();
      await new Promise((resolve) => quickServer.close(resolve));
    }
  });

  it("forgets a closed connection's subscriptions", async () => {
    const client = await connect(url);
    client.send({ type: "subscribe", event: "request.status.updated", filters: { id: ID_B } });
    await client.next();
    const before = feed.connections();
    client.socket.close();
    await once(client.socket, "close");
    const until = Date.now() + 1_000;
    while (feed.connections() >= before && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(feed.connections()).toBe(before - 1);
    await bus.publish(update(ID_B, "success"));
  });

  it("shows a request's referrer only to connections with a key of the integrator that quoted it, and refuses bad keys before upgrading", async () => {
    const owned: StatusUpdate = { ...update(ID_A, "pending"), apiKeyId: "k1", apiKeyIntegrator: "acme" };
    owned.body = { ...owned.body, data: { ...owned.body.data, referrer: "acme.app" } };
    const clients = await Promise.all([
      connect(url, "cf_acme"),
      connect(url, "cf_acme_2"),
      connect(url, "cf_other"),
      connect(url),
    ]);
    for (const client of clients) {
      client.send({ type: "subscribe", event: "request.status.updated", filters: { id: ID_A } });
      await client.next();
    }
    await bus.publish(owned);
    const referrers = await Promise.all(clients.map(async (client) => (await client.next()).data.referrer));
    expect(referrers).toEqual(["acme.app", "acme.app", null, null]);
    for (const client of clients) client.socket.close();

    const refused = async (key: string) => {
      const socket = new WebSocket(url, { headers: { "x-api-key": key } });
      const [, response] = await once(socket, "unexpected-response");
      const body = await new Promise<string>((resolve) => {
        let text = "";
        response.on("data", (chunk: Buffer) => (text += chunk));
        response.on("end", () => resolve(text));
      });
      return { status: response.statusCode, body: JSON.parse(body) };
    };
    expect(await refused("cf_unknown")).toEqual({
      status: 401,
      body: { message: "x-api-key is not a known API key", errorCode: "UNAUTHORIZED" },
    });
    const failed = await refused("cf_db_down");
    expect(failed.status).toBe(500);
    expect(JSON.stringify(failed.body)).not.toContain("hunter2");
  });
});
