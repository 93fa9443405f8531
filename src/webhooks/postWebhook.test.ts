import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhookPoster } from "./postWebhook.js";

describe("createWebhookPoster", () => {
  let server: http.Server;
  let url: string;
  const seen: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        seen.push({ headers: req.headers, body });
        if (req.url === "/slow") return; // never answers
        res.statusCode = req.url === "/gone" ? 410 : 204;
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it("posts the body with the given headers on the devnet", async () => {
    const poster = createWebhookPoster({ allowPrivate: true });
    expect(await poster.post(`${url}/hook`, '{"a":1}', { "x-custom": "yes" })).toEqual({ statusCode: 204 });
    expect(await poster.post(`${url}/gone`, "{}", {})).toEqual({ statusCode: 410 });
    poster.close();
    expect(seen[0].body).toBe('{"a":1}');
    expect(seen[0].headers).toMatchObject({ "x-custom": "yes", "content-type": "application/json" });
  });

  it("times out a receiver that holds the request open", async () => {
    const poster = createWebhookPoster({ allowPrivate: true, timeoutMs: 200 });
    const started = Date.now();
    expect(await poster.post(`${url}/slow`, "{}", {})).toEqual({ error: "timed out after 200 ms" });
    expect(Date.now() - started).toBeLessThan(10_000); // the receiver never answers: anything short of never is the timeout
    poster.close();
  });

  it("fails a receiver that does not finish connecting within the connect timeout (here a TLS handshake that never comes)", async () => {
    // Accepts TCP and says nothing: the TLS handshake never completes, as with a receiver that cannot take the connection.
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const poster = createWebhookPoster({ allowPrivate: true, timeoutMs: 5_000, connectTimeoutMs: 200 });
    try {
      const started = Date.now();
      const answer = await poster.post(`https://127.0.0.1:${(silent.address() as AddressInfo).port}/hook`, "{}", {});
      expect(answer).toEqual({ error: "connect timed out after 200 ms" });
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      poster.close();
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it("in production refuses loopback, whether literal or behind a name (checked at connect time)", async () => {
    const poster = createWebhookPoster({ allowPrivate: false });
    const port = (server.address() as AddressInfo).port;
    expect(await poster.post(`https://127.0.0.1:${port}/hook`, "{}", {})).toEqual({
      error: "refused non-public address 127.0.0.1",
    });
    expect(await poster.post(`https://localhost:${port}/hook`, "{}", {})).toMatchObject({
      error: expect.stringMatching(/refused non-public address (127\.0\.0\.1|::1)/),
    });
    expect(await poster.post(`${url}/hook`, "{}", {})).toEqual({ error: "plain http is allowed on the devnet only" });
    poster.close();
  });
});
