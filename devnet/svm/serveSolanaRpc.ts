import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocketServer } from "ws";
import { freePort } from "../freePort.js";
import { solanaPubsub } from "./solanaPubsub.js";
import { solanaRpcMethods } from "./solanaRpcMethods.js";
import { SolanaRpcError } from "./SolanaRpcError.js";
import type { SvmLedger } from "./svmLedger.js";

export type SolanaRpcServer = { port: number; wsPort: number; rpcUrl: string; wsUrl: string; close(): Promise<void> };

/**
 * Serves a ledger as a Solana RPC node on 127.0.0.1: JSON-RPC over HTTP (single and batch requests) on `port`, and
 * the websocket pubsub both on that port and on `port + 1`, where `@solana/web3.js` looks for it by default.
 * Without a port it finds two free consecutive ones.
 */
export async function serveSolanaRpc(ledger: SvmLedger, { port = 0 } = {}): Promise<SolanaRpcServer> {
  const methods = solanaRpcMethods(ledger);
  const pubsub = solanaPubsub(ledger);
  const wss = new WebSocketServer({ noServer: true });
  wss.on("connection", (socket) => pubsub.connect(socket));

  const answer = (request: unknown) => {
    const { id = null, method, params } = (request ?? {}) as { id?: unknown; method?: unknown; params?: unknown };
    if (typeof method !== "string") return { jsonrpc: "2.0", error: { code: -32600, message: "Invalid request" }, id };
    const run = methods[method];
    if (!run) return { jsonrpc: "2.0", error: { code: -32601, message: "Method not found" }, id };
    try {
      return { jsonrpc: "2.0", result: run(Array.isArray(params) ? params : []), id };
    } catch (error) {
      if (error instanceof SolanaRpcError)
        return { jsonrpc: "2.0", error: { code: error.code, message: error.message, data: error.data }, id };
      return { jsonrpc: "2.0", error: { code: -32603, message: `Internal error: ${(error as Error).message}` }, id };
    }
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    // Browser wallets call the RPC from other origins.
    res.setHeader("access-control-allow-origin", "*");
    res.setHeader("access-control-allow-headers", "content-type, solana-client");
    if (req.method === "OPTIONS") return void res.writeHead(204).end();
    if (req.method === "GET" && req.url === "/health") return void res.writeHead(200).end("ok");
    if (req.method !== "POST") return void res.writeHead(405).end();
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        body = undefined;
      }
      const response =
        body === undefined
          ? { jsonrpc: "2.0", error: { code: -32700, message: "Parse error" }, id: null }
          : Array.isArray(body)
            ? body.map(answer)
            : answer(body);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(response));
    });
  };

  const servers: Server[] = [];
  const listen = (p: number) =>
    new Promise<Server>((resolve, reject) => {
      const server = createServer(handle);
      server.on("upgrade", (req, socket, head) =>
        wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws)),
      );
      server.once("error", reject);
      server.listen(p, "127.0.0.1", () => resolve(server));
    });
  const closeAll = () =>
    Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));

  for (let attempt = 0; ; attempt++) {
    const first = port || (await freePort());
    try {
      servers.push(await listen(first));
      servers.push(await listen((servers[0].address() as AddressInfo).port + 1));
      break;
    } catch (error) {
      await closeAll();
      if (port || attempt >= 10) throw error;
    }
  }
  const httpPort = (servers[0].address() as AddressInfo).port;
  return {
    port: httpPort,
    wsPort: httpPort + 1,
    rpcUrl: `http://127.0.0.1:${httpPort}`,
    wsUrl: `ws://127.0.0.1:${httpPort + 1}`,
    async close() {
      pubsub.close();
      for (const client of wss.clients) client.terminate();
      for (const server of servers) server.closeAllConnections();
      await closeAll();
    },
  };
}
