import { type ServerType, serve } from "@hono/node-server";
import type { Hono } from "hono";

export type ListeningApp = { url: string; port: number; close(): Promise<void> };

/** Serves a small internal Hono app (health, metrics, the order signer) on `host:port`; port 0 picks a free one. */
export async function listenApp(app: Hono, host: string, port: number): Promise<ListeningApp> {
  const server = await new Promise<ServerType>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, hostname: host, port }, () => resolve(started));
    started.once("error", reject);
  });
  const address = server.address();
  const bound = typeof address === "object" && address ? address.port : port;
  return {
    url: `http://${host}:${bound}`,
    port: bound,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
