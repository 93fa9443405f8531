import { createServer } from "node:net";

/** Whether `port` can be bound on `host` now. */
export function isPortFree(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    // A client probing the port meanwhile (a process waiting for its old owner) is dropped, or close() waits for it.
    const server = createServer((socket) => socket.destroy());
    server.unref();
    server.once("error", () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}
