import { once } from "node:events";
import net from "node:net";

export type TcpProxy = {
  /** `host:port` of the proxy. */
  address: string;
  /** Drops every connection through it and refuses new ones until `restore()`. */
  cut(): void;
  restore(): void;
  /** Keeps every connection open but passes no more bytes, new ones too: a network that hangs instead of refusing. */
  stall(): void;
  close(): Promise<void>;
};

/** A TCP proxy to `target` that a test can cut, to take one client's connection down while the server runs on. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let down = false;
  let stalled = false;
  const sockets = new Set<net.Socket>();
  const pairs = new Set<[net.Socket, net.Socket]>();
  const server = net.createServer((client) => {
    if (down) return void client.destroy();
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    if (stalled) return;
    const upstream = net.connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => undefined);
    }
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    client.pipe(upstream).pipe(client);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    client.on("close", () => pairs.delete(pair));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as net.AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    cut() {
      down = true;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      down = false;
    },
    stall() {
      stalled = true;
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
