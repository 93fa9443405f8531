import http from "node:http";
import type { AddressInfo } from "node:net";
import { HttpRequestError, RpcRequestError, TimeoutError, createPublicClient, http as httpTransport } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UpstreamFailureError, UpstreamTimeoutError } from "../../domain/errors.js";
import { keepAliveFetch } from "./keepAliveFetch.js";
import { translateRpcError } from "./translateRpcError.js";

/** A JSON-RPC node whose answer to each method is chosen by the test; it counts the connections it accepts. */
function fakeNode() {
  let connections = 0;
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      const { id, method } = JSON.parse(body);
      const json = (status: number, answer: object) => {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify({ jsonrpc: "2.0", id, ...answer }));
      };
      if (method === "eth_chainId") json(200, { result: "0x1" });
      else if (method === "eth_blockNumber") json(200, { error: { code: -32000, message: "header not found" } });
      else if (method === "eth_gasPrice") json(502, { error: "bad gateway" });
      else if (method === "eth_getBalance") json(200, { result: `0x${"f".repeat(4_000)}` });
      else if (method === "web3_clientVersion") {
        response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
        response.end("not really gzip");
      }
      // net_listening: never answered
    });
  });
  server.on("connection", () => connections++);
  return { server, connections: () => connections };
}

describe("keepAliveFetch under viem's HTTP transport", () => {
  const node = fakeNode();
  let url = "";
  const client = (options: { timeout?: number; maxBodyBytes?: number } = {}) =>
    createPublicClient({
      transport: httpTransport(url, {
        retryCount: 0,
        timeout: options.timeout ?? 2_000,
        fetchFn: keepAliveFetch({ maxBodyBytes: options.maxBodyBytes ?? 1_000_000 }),
        maxResponseBodySize: false,
      }),
    });

  beforeAll(async () => {
    await new Promise<void>((resolve) => node.server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(node.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    node.server.closeAllConnections();
    await new Promise((resolve) => node.server.close(resolve));
  });

  it("answers JSON-RPC calls over one kept-alive connection", async () => {
    const rpc = client();
    const before = node.connections();
    for (let i = 0; i < 5; i++) expect(await rpc.getChainId()).toBe(1);
    expect(node.connections() - before).toBe(1);
  });

  it("keeps viem's error classes, so a node's failures translate as before", async () => {
    const rpc = client();
    const rpcError = await rpc.getBlockNumber({ cacheTime: 0 }).catch((error: unknown) => error);
    expect(
      (rpcError as Error & { walk(fn: (e: unknown) => boolean): unknown }).walk((e) => e instanceof RpcRequestError),
    ).toBeInstanceOf(RpcRequestError);

    const httpError = await rpc.getGasPrice().catch((error: unknown) => error);
    const carried = (httpError as HttpRequestError).walk((e) => e instanceof HttpRequestError) as HttpRequestError;
    expect(carried.status).toBe(502);
    expect(carried.headers?.get("Content-Type")).toBe("application/json");
    expect(translateRpcError(httpError, 1)).toBeInstanceOf(UpstreamFailureError);

    const timedOut = await client({ timeout: 100 })
      .request({ method: "net_listening" })
      .catch((error: unknown) => error);
    expect((timedOut as TimeoutError).walk((e) => e instanceof TimeoutError)).toBeInstanceOf(TimeoutError);
    expect(translateRpcError(timedOut, 1)).toBeInstanceOf(UpstreamTimeoutError);
  });

  it("refuses an answer larger than its limit or compressed unasked, and a node that is not there", async () => {
    expect(await client().getBalance({ address: "0x0000000000000000000000000000000000000001" })).toBeGreaterThan(0n);
    const tooLarge = await client({ maxBodyBytes: 1_000 })
      .getBalance({ address: "0x0000000000000000000000000000000000000001" })
      .catch((error: unknown) => error);
    expect(tooLarge).toBeInstanceOf(HttpRequestError);
    expect(String((tooLarge as HttpRequestError).details)).toContain("larger than 1000 bytes");
    const compressed = await client()
      .request({ method: "web3_clientVersion" })
      .catch((error: unknown) => error);
    expect(String((compressed as HttpRequestError).details)).toContain("answered in gzip");

    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await createPublicClient({
      transport: httpTransport(`http://127.0.0.1:${port}`, {
        retryCount: 0,
        fetchFn: keepAliveFetch({ maxBodyBytes: 1_000 }),
        maxResponseBodySize: false,
      }),
    })
      .getChainId()
      .catch((error: unknown) => error);
    expect(translateRpcError(refused, 1)).toBeInstanceOf(UpstreamFailureError);
  });
});
