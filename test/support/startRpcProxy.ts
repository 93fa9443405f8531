import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocket, WebSocketServer } from "ws";

type RpcRequest = { id: number; method: string; params?: unknown[] };
type RpcError = { code: number; message: string };

export type RpcProxy = {
  url: string;
  /** The same proxy over HTTP JSON-RPC (to the node's HTTP endpoint on the same port), as workers call it. */
  httpUrl: string;
  /** Sends every client a notification on its subscription of this kind (`logs`, `newHeads`), as the node would. */
  notify(kind: string, result: unknown): void;
  close(): Promise<void>;
};

/**
 * A JSON-RPC proxy to a node (websocket, and HTTP on the same port), for what a local node will not do: it answers the
 * requests `refuse` picks with the error a node without that method gives (-32601; a provider without log
 * subscriptions, say) or with the error `refuse` returns (a node failing transiently), and can push notifications the
 * node did not send (a reorg's `removed` logs).
 */
export async function startRpcProxy(
  upstreamUrl: string,
  options: { refuse?: (request: RpcRequest) => boolean | RpcError } = {},
): Promise<RpcProxy> {
  const refusal = (request: RpcRequest): RpcError | undefined => {
    const refused = options.refuse?.(request);
    if (!refused) return undefined;
    return refused === true
      ? { code: -32601, message: `the method ${request.method} does not exist/is not available` }
      : refused;
  };
  const upstreamHttpUrl = upstreamUrl.replace(/^ws/, "http");
  const httpServer = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString()) as RpcRequest | RpcRequest[];
    const answer = async (request: RpcRequest) => {
      const error = refusal(request);
      if (error) return { jsonrpc: "2.0", id: request.id, error };
      const response = await fetch(upstreamHttpUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(request),
      });
      return response.json();
    };
    const result = Array.isArray(body) ? await Promise.all(body.map(answer)) : await answer(body);
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(result));
  });
  const server = new WebSocketServer({ server: httpServer });
  // Per client: its subscriptions' ids by kind, learnt from the node's answers.
  const subscriptions = new Map<WebSocket, Map<string, string>>();
  server.on("connection", (client) => {
    const upstream = new WebSocket(upstreamUrl);
    const opened = new Promise((resolve, reject) => upstream.once("open", resolve).once("error", reject));
    const kinds = new Map<number, string>();
    const ids = new Map<string, string>();
    subscriptions.set(client, ids);
    upstream.on("message", (data) => {
      const message = JSON.parse(data.toString()) as { id?: number; result?: unknown };
      const kind = message.id === undefined ? undefined : kinds.get(message.id);
      if (kind && typeof message.result === "string") ids.set(kind, message.result);
      client.send(data.toString());
    });
    upstream.on("close", () => client.close());
    client.on("close", () => {
      subscriptions.delete(client);
      upstream.close();
    });
    client.on("message", async (data) => {
      const request = JSON.parse(data.toString()) as RpcRequest;
      const error = refusal(request);
      if (error) {
        client.send(JSON.stringify({ jsonrpc: "2.0", id: request.id, error }));
        return;
      }
      if (request.method === "eth_subscribe") kinds.set(request.id, String(request.params?.[0]));
      await opened.catch(() => client.close());
      upstream.send(data.toString());
    });
  });
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  const { port } = httpServer.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    httpUrl: `http://127.0.0.1:${port}`,
    notify(kind, result) {
      for (const [client, ids] of subscriptions) {
        const subscription = ids.get(kind);
        if (subscription)
          client.send(JSON.stringify({ jsonrpc: "2.0", method: "eth_subscription", params: { subscription, result } }));
      }
    },
    close: async () => {
      for (const client of server.clients) client.terminate();
      await new Promise((resolve) => server.close(resolve));
      httpServer.closeAllConnections();
      await new Promise((resolve) => httpServer.close(resolve));
    },
  };
}
