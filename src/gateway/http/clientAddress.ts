import type { IncomingMessage } from "node:http";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";

/** A client's address: the socket's peer, or the first X-Forwarded-For hop behind a trusted proxy. */
export function pickClientAddress(
  forwardedFor: string | undefined,
  peer: string | undefined,
  trustForwardedFor: boolean,
): string {
  const forwarded = trustForwardedFor ? forwardedFor?.split(",")[0]?.trim() : undefined;
  return forwarded || peer || "unknown";
}

/** The address of a client asking for a websocket upgrade (see pickClientAddress). */
export function upgradeClientAddress(request: IncomingMessage, trustForwardedFor: boolean): string {
  return pickClientAddress(
    request.headers["x-forwarded-for"]?.toString(),
    request.socket.remoteAddress,
    trustForwardedFor,
  );
}

/** The calling client's address (see pickClientAddress). */
export function clientAddress(c: Context, trustForwardedFor: boolean): string {
  let peer: string | undefined;
  try {
    peer = getConnInfo(c).remote.address;
  } catch {
    peer = undefined;
  }
  return pickClientAddress(c.req.header("x-forwarded-for"), peer, trustForwardedFor);
}
