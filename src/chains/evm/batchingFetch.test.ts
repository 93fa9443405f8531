import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  type Address,
  HttpRequestError,
  RpcRequestError,
  TimeoutError,
  createPublicClient,
  http as httpTransport,
} from "viem";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { UpstreamFailureError } from "../../domain/errors.js";
import { batchingFetch } from "./batchingFetch.js";
import { keepAliveFetch } from "./keepAliveFetch.js";
import { translateRpcError } from "./translateRpcError.js";

type RpcCall = { id: number; method: string; params?: unknown[] };

/**
 * A JSON-RPC node that records each HTTP request's body. eth_getBalance answers the address's last byte as the
 * balance; a batch answer leaves out net_version; net_listening is never answered; `mode` makes it refuse batches
 * (one error for the whole batch, bare as some providers answer or in a one-element array as geth does) or fail every
 * request with 502.
 */
function fakeNode() {
  const bodies: unknown[] = [];
  let mode: "ok" | "no batches" | "no batches, as geth" | "bad gateway" = "ok";
  const answer = (call: RpcCall) =>
    call.method === "eth_getBalance"
      ? { jsonrpc: "2.0", id: call.id, result: `0x${String(call.params?.[0]).slice(-2)}` }
      : { jsonrpc: "2.0", id: call.id, result: "0x1" };
  const server = http.createServer((request, response) => {
    let text = "";
    request.on("data", (chunk) => (text += chunk));
    request.on("end", () => {
      const body = JSON.parse(text) as RpcCall | RpcCall[];
      bodies.push(body);
      const reply = (status: number, json: unknown) => {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify(json));
      };
      if (mode === "bad gateway") return reply(502, { error: "bad gateway" });
      if (!Array.isArray(body)) {
        if (body.method !== "net_listening") reply(200, answer(body));
        return;
      }
      const refusal = { jsonrpc: "2.0", id: null, error: { code: -32600, message: "batches not allowed" } };
      if (mode === "no batches") return reply(200, refusal);
      if (mode === "no batches, as geth") return reply(200, [refusal]);
      if (body.some((call) => call.method === "net_listening")) return;
      reply(200, body.filter((call) => call.method !== "net_version").map(answer));
    });
  });
  return {
    server,
    bodies,
    setMode: (next: typeof mode) => (mode = next),
  };
}

const address = (last: string) => `0x${"0".repeat(38)}${last}` as Address;

describe("batchingFetch under viem's HTTP transport", () => {
  const node = fakeNode();
  let url = "";
  const client = (options: { maxBatch?: number; timeout?: number } = {}) =>
    createPublicClient({
      transport: httpTransport(url, {
        retryCount: 0,
        timeout: options.timeout ?? 2_000,
        fetchFn: batchingFetch(keepAliveFetch({ maxBodyBytes: 1_000_000 }), {
          maxBatch: options.maxBatch ?? 50,
          timeoutMs: 2_000,
        }),
        maxResponseBodySize: false,
      }),
    });

  beforeAll(async () => {
    await new Promise<void>((resolve) => node.server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(node.server.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    node.bodies.length = 0;
    node.setMode("ok");
  });
  afterAll(async () => {
    node.server.closeAllConnections();
    await new Promise((resolve) => node.server.close(resolve));
  });

  it("sends the calls of one turn as one batch, each answered with its own result", async () => {
    const rpc = client();
    const lasts = ["11", "22", "33", "44", "55"];
    const balances = await Promise.all(lasts.map((last) => rpc.getBalance({ address: address(last) })));
    expect(balances).toEqual(lasts.map((last) => BigInt(`0x${last}`)));
    expect(node.bodies).toHaveLength(1);
    expect((node.bodies[0] as RpcCall[]).map((call) => call.method)).toEqual(Array(5).fill("eth_getBalance"));
  });

  it("sends a call alone in its turn as it is, and splits a turn's calls into batches of maxBatch", async () => {
    const rpc = client({ maxBatch: 2 });
    expect(await rpc.getBalance({ address: address("aa") })).toBe(0xaan);
    expect(Array.isArray(node.bodies[0])).toBe(false);
    node.bodies.length = 0;
    await Promise.all(["01", "02", "03", "04", "05"].map((last) => rpc.getBalance({ address: address(last) })));
    // two batches of two; the fifth call went alone, as a single call (no length)
    expect(node.bodies.map((body) => (body as RpcCall[]).length)).toEqual([2, 2, undefined]);
  });

  it("fails only the call a batch answer left out, as a JSON-RPC error", async () => {
    const rpc = client();
    const [balance, left] = await Promise.allSettled([
      rpc.getBalance({ address: address("77") }),
      rpc.request({ method: "net_version" }),
    ]);
    expect(balance).toEqual({ status: "fulfilled", value: 0x77n });
    const error = (left as PromiseRejectedResult).reason as RpcRequestError;
    expect(error.walk((e) => e instanceof RpcRequestError)).toBeInstanceOf(RpcRequestError);
    expect(error.details).toContain("left this call out");
    expect(translateRpcError(error, 1)).toBeInstanceOf(UpstreamFailureError);
  });

  it("sends the calls of a batch the node refuses one by one, and every later call too", async () => {
    for (const refusal of ["no batches", "no batches, as geth"] as const) {
      node.setMode(refusal);
      node.bodies.length = 0;
      const rpc = client();
      const lasts = ["01", "02"];
      const read = () => Promise.all(lasts.map((last) => rpc.getBalance({ address: address(last) })));
      expect(await read(), refusal).toEqual([1n, 2n]);
      expect(await read(), refusal).toEqual([1n, 2n]);
      expect(node.bodies.map((body) => Array.isArray(body))).toEqual([true, false, false, false, false]);
    }
  });

  it("gives every call of a batch the node failed that failure, for viem's retries", async () => {
    node.setMode("bad gateway");
    const rpc = client();
    const failed = await Promise.allSettled(["01", "02"].map((last) => rpc.getBalance({ address: address(last) })));
    expect(node.bodies.map((body) => Array.isArray(body))).toEqual([true]);
    for (const outcome of failed) {
      const reason = (outcome as PromiseRejectedResult).reason as HttpRequestError;
      expect((reason.walk((e) => e instanceof HttpRequestError) as HttpRequestError).status).toBe(502);
      expect(translateRpcError(reason, 1)).toBeInstanceOf(UpstreamFailureError);
    }
  });

  it("times each call out on its own signal when the node never answers the batch", async () => {
    const rpc = client({ timeout: 100 });
    const outcomes = await Promise.allSettled([
      rpc.getBalance({ address: address("01") }),
      rpc.request({ method: "net_listening" }),
    ]);
    for (const outcome of outcomes) {
      const reason = (outcome as PromiseRejectedResult).reason as TimeoutError;
      expect(reason.walk((e) => e instanceof TimeoutError)).toBeInstanceOf(TimeoutError);
    }
  });
});
