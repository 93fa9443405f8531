import http from "node:http";
import type { AddressInfo } from "node:net";
import { type ServerType, serve } from "@hono/node-server";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonBody } from "./jsonBody.js";
import { MAX_BODY_BYTES, limitBody } from "./limitBody.js";

/** POSTs `body` to the server, with a Content-Length or chunked, and reads the answer. */
function post(port: number, body: string, framing: "length" | "chunked") {
  return new Promise<{ status: number; connection?: string; body: string }>((resolve, reject) => {
    const request = http.request({ host: "127.0.0.1", port, method: "POST", path: "/echo", agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body: text }));
    });
    request.on("error", reject);
    request.setHeader("content-type", "application/json");
    if (framing === "length") request.setHeader("content-length", Buffer.byteLength(body));
    // Two writes make Node send a chunked body when no length is set.
    request.write(body.slice(0, 10));
    request.end(body.slice(10));
  });
}

describe("limitBody, with jsonBody behind it, under the node server", () => {
  const app = new Hono();
  app.use("*", limitBody());
  app.post("/echo", async (c) => c.json({ echoed: await jsonBody(c) }));
  let server: ServerType;
  let port = 0;
  beforeAll(async () => {
    server = await new Promise<ServerType>((resolve) => {
      const started = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(started));
    });
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const small = JSON.stringify({ referrer: "x".repeat(1_000) });
  const large = JSON.stringify({ referrer: "x".repeat(MAX_BODY_BYTES) });

  it("reads a body within the limit, framed by its length or chunked", async () => {
    for (const framing of ["length", "chunked"] as const) {
      const answer = await post(port, small, framing);
      expect({ framing, status: answer.status }).toEqual({ framing, status: 200 });
      expect(JSON.parse(answer.body)).toEqual({ echoed: JSON.parse(small) });
    }
  });

  it("refuses a body over the limit with 413 and closes the connection, either framing", async () => {
    for (const framing of ["length", "chunked"] as const) {
      const answer = await post(port, large, framing);
      expect({ framing, status: answer.status, connection: answer.connection }).toEqual({
        framing,
        status: 413,
        connection: "close",
      });
      expect(JSON.parse(answer.body)).toEqual({
        message: `request body exceeds ${MAX_BODY_BYTES} bytes`,
        errorCode: "INVALID_INPUT",
      });
    }
  });

  it("reads a body where there is no node message (app.request)", async () => {
    const response = await app.request("/echo", { method: "POST", body: small });
    expect(await response.json()).toEqual({ echoed: JSON.parse(small) });
  });
});
