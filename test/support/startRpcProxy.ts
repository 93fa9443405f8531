import type { AddressInfo } from "node:net";
import { WebSocket, WebSocketServer } from "ws";

type RpcRequest = { id: number; method: string; params?: unknown[] };

export type RpcProxy = {
  url: string;
  /** Sends every client a notification on its subscription of this kind (`logs`, `newHeads`), as the node would. */
  notify(kind: string, result: unknown): void;
  close(): Promise<void>;
};

/**
 * A websocket JSON-RPC proxy to a node, for what a local node will not do: it answers the requests `refuse` picks with
 * the error a node without that method gives (-32601), a provider without log subscriptions say, and can push
 * notifications the node did not send (a reorg's `removed` logs).
 */
export async function startRpcProxy(
  upstreamUrl: string,
  options: { refuse?: (request: RpcRequest) => boolean } = {},
): Promise<RpcProxy> {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
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
      if (options.refuse?.(request)) {
        const error = { code: -32601, message: `the method ${request.method} does not exist/is not available` };
        client.send(JSON.stringify({ jsonrpc: "2.0", id: request.id, error }));
        return;
      }
      if (request.method === "eth_subscribe") kinds.set(request.id, String(request.params?.[0]));
      await opened.catch(() => client.close());
      upstream.send(data.toString());
    });
  });
  await new Promise((resolve) => server.once("listening", resolve));
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
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
    },
  };
}
