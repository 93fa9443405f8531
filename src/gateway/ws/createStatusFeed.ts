import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { Logger } from "pino";
import { type WebSocket, WebSocketServer } from "ws";
import type { StatusFanout, StatusListener } from "../../events/createStatusFanout.js";
import type { StatusUpdate } from "../../events/statusUpdate.js";
import { isCrossfillError } from "../../domain/errors.js";
import { filterKey, parseFeedMessage } from "./feedMessage.js";
import { refuseUpgrade } from "./refuseUpgrade.js";

export type StatusFeedOptions = {
  fanout: StatusFanout;
  logger: Logger;
  /**
   * Looks up the `x-api-key` a client may present on the upgrade (rejects an unknown or revoked one). The feed is
   * public; only a key of the integrator that quoted a request sees its `referrer`, as in GET /requests/v3.
   */
  authenticate(key: string): Promise<{ integrator: string } | undefined>;
  /** Subscriptions one socket may hold. */
  maxSubscriptions?: number;
  /** A socket that has not answered a ping within this long is closed. */
  heartbeatMs?: number;
  /** A socket whose unsent data grows past this is too slow to follow and is closed. */
  maxBufferedBytes?: number;
};

export type StatusFeed = {
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Open sockets (for tests and metrics). */
  connections(): number;
  close(): Promise<void>;
};

type Client = {
  socket: WebSocket;
  keys: Set<string>;
  alive: boolean;
  listener: StatusListener;
  integrator: string | undefined;
};

const MAX_FRAME_BYTES = 4 * 1024;

/**
 * The `request.status.updated` websocket feed at `/ws`: clients subscribe by request id, wallet or chain and
 * receive the webhook's body for every later status change, through the gateway's keyed fan-out.
 */
export function createStatusFeed(options: StatusFeedOptions): StatusFeed {
  const { logger } = options;
  const maxSubscriptions = options.maxSubscriptions ?? 100;
  const maxBufferedBytes = options.maxBufferedBytes ?? 1024 * 1024;
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const clients = new Set<Client>();

  const send = (client: Client, text: string) => {
    if (client.socket.readyState !== client.socket.OPEN) return;
    if (client.socket.bufferedAmount > maxBufferedBytes) {
      client.socket.close(1013, "too slow to follow the feed");
      return;
    }
    client.socket.send(text);
  };
  const reply = (client: Client, message: object) => send(client, JSON.stringify(message));
  // Serialized once per update and audience, however many sockets it goes to.
  const serialized = new WeakMap<StatusUpdate, { owner?: string; public?: string }>();
  const bodyText = (update: StatusUpdate, client: Client) => {
    const owner = update.apiKeyIntegrator !== null && client.integrator === update.apiKeyIntegrator;
    let texts = serialized.get(update);
    if (!texts) serialized.set(update, (texts = {}));
    if (owner) return (texts.owner ??= JSON.stringify(update.body));
    return (texts.public ??= JSON.stringify({ ...update.body, data: { ...update.body.data, referrer: null } }));
  };

  const unsubscribeAll = (client: Client) => {
    for (const key of client.keys) options.fanout.remove(key, client.listener);
    client.keys.clear();
  };

  wss.on("connection", (socket: WebSocket, integrator: string | undefined) => {
    const client: Client = {
      socket,
      keys: new Set(),
      alive: true,
      integrator,
      listener: (update) => send(client, bodyText(update, client)),
    };
    clients.add(client);
    socket.on("pong", () => {
      client.alive = true;
    });
    socket.on("message", (data, isBinary) => {
      client.alive = true;
      if (isBinary)
        return reply(client, { type: "error", errorCode: "INVALID_INPUT", message: "send text frames of JSON" });
      const parsed = parseFeedMessage(data.toString());
      if (!parsed.ok) return reply(client, { type: "error", errorCode: "INVALID_INPUT", message: parsed.reason });
      const message = parsed.message;
      if (message.type === "ping") return reply(client, { type: "pong", timestamp: Date.now() });
      const key = filterKey(message.filters);
      if (message.type === "subscribe") {
        if (!client.keys.has(key) && client.keys.size >= maxSubscriptions) {
          return reply(client, {
            type: "error",
            errorCode: "INVALID_INPUT",
            message: `at most ${maxSubscriptions} subscriptions per connection`,
          });
        }
        client.keys.add(key);
        options.fanout.add(key, client.listener);
        return reply(client, { type: "subscribed", event: message.event, filters: message.filters });
      }
      client.keys.delete(key);
      options.fanout.remove(key, client.listener);
      return reply(client, { type: "unsubscribed", event: message.event, filters: message.filters });
    });
    socket.on("close", () => {
      unsubscribeAll(client);
      clients.delete(client);
    });
    socket.on("error", (error) => logger.debug({ err: error }, "feed socket error"));
  });

  // Protocol-level heartbeat: a socket that missed the last ping is gone (NAT, sleeping laptop, …).
  const heartbeat = setInterval(() => {
    for (const client of clients) {
      if (!client.alive) {
        client.socket.terminate();
        continue;
      }
      client.alive = false;
      client.socket.ping();
    }
  }, options.heartbeatMs ?? 30_000);
  heartbeat.unref();

  return {
    handleUpgrade(request, socket, head) {
      const presented = request.headers["x-api-key"];
      const key = Array.isArray(presented) ? presented[0] : presented;
      (key ? options.authenticate(key) : Promise.resolve(undefined)).then(
        (record) => wss.handleUpgrade(request, socket, head, (ws) => wss.emit("connection", ws, record?.integrator)),
        (error: unknown) => {
          // Answered like the HTTP routes (401 for a bad key), before any websocket exists.
          if (!isCrossfillError(error)) logger.error({ err: error }, "feed key lookup failed");
          refuseUpgrade(socket, error);
        },
      );
    },
    connections: () => clients.size,
    async close() {
      clearInterval(heartbeat);
      for (const client of clients) unsubscribeAll(client);
      for (const client of clients) client.socket.close(1001, "server shutting down");
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      for (const client of clients) client.socket.terminate();
    },
  };
}
