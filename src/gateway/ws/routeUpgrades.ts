import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";

export type UpgradeHandler = (request: IncomingMessage, socket: Duplex, head: Buffer) => void;

/** The HTTP server's `upgrade` listener: websocket paths to their servers, anything else refused with 404. */
export function routeUpgrades(handlers: Record<string, UpgradeHandler>): UpgradeHandler {
  return (request, socket, head) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    const handler = handlers[path];
    if (handler) return handler(request, socket, head);
    socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
  };
}
