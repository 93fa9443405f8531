import { createServer } from "node:net";

/**
 * A TCP port free on 127.0.0.1 right now (the OS picks it). anvil and Postgres need an explicit
 * port, so callers ask here; another process can still take it before they bind, which they detect.
 */
export function freePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    // A client probing the port meanwhile is dropped, or close() waits for it.
    const server = createServer((socket) => socket.destroy());
    server.unref();
    server.once("error", reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close((err) => (err ? reject(err) : port ? resolve(port) : reject(new Error("no port assigned"))));
    });
  });
}
