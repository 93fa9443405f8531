import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { errorBody } from "../http/errorBody.js";

/** Answers a websocket upgrade with the HTTP error a REST route would give for `error`, and closes the socket. */
export function refuseUpgrade(socket: Duplex, error: unknown): void {
  const { status, body, headers } = errorBody(error);
  const text = JSON.stringify(body);
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n${extra}Connection: close\r\n\r\n${text}`,
  );
}
