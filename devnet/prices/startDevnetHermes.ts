import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { type DevnetPriceBook, createDevnetPriceBook } from "./devnetPriceBook.js";
import { hermesApp } from "./hermesApp.js";

export type DevnetHermes = {
  /** Hermes' base URL: `<hermesUrl>/v2/updates/price/latest`, `<hermesUrl>/devnet/price`. */
  hermesUrl: string;
  book: DevnetPriceBook;
  stop(): Promise<void>;
};

/**
 * The devnet's price service: a Hermes-speaking HTTP server on 127.0.0.1 whose feeds walk at random by up to `walkBps`
 * (default 5, 0.05 %) every `intervalMs` (default 1 s) and are published each time, unless frozen.
 */
export async function startDevnetHermes(
  options: { port?: number; intervalMs?: number; walkBps?: number } = {},
): Promise<DevnetHermes> {
  const book = createDevnetPriceBook();
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: hermesApp(book).fetch, hostname: "127.0.0.1", port: options.port ?? 0 }, () => resolve(s));
    s.once("error", reject);
  });
  const walkBps = options.walkBps ?? 5;
  const timer = setInterval(() => book.walk(walkBps), options.intervalMs ?? 1_000);
  timer.unref();
  return {
    hermesUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    book,
    async stop() {
      clearInterval(timer);
      await new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        if ("closeAllConnections" in server) server.closeAllConnections();
      });
    },
  };
}
