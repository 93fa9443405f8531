import { createServer as createHttpServer } from "node:http";
import { type AddressInfo, type Socket, createServer } from "node:net";
import { zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chainConfigSchema } from "../src/chains/chainConfig.js";
import { postQuote } from "./support/postQuote.js";
import { type RestAppStack, startRestApp } from "./support/startRestApp.js";

const USDC = "0x00000000000000000000000000000000000000c0";

/** The devnet's two chain ids served by one node URL, with a short RPC timeout. */
function chainsAt(rpcUrl: string) {
  return [31338, 31339].map((id) =>
    chainConfigSchema.parse({
      id,
      name: `chain-${id}`,
      rpcUrl,
      rpcTimeoutMs: 300,
      depository: "0x00000000000000000000000000000000000000d0",
      receiver: "0x00000000000000000000000000000000000000e0",
      currencies: [{ symbol: "USDC", address: USDC, decimals: 6 }],
    }),
  );
}

/** A node that answers the reads a quote makes, but fails every eth_call with an internal error (-32603). */
const failingCalls = createHttpServer((request, response) => {
  let body = "";
  request.on("data", (chunk) => (body += chunk));
  request.on("end", () => {
    const { id, method } = JSON.parse(body) as { id: number; method: string };
    const results: Record<string, string> = {
      eth_chainId: "0x7a6a",
      eth_gasPrice: "0x1",
      eth_blockNumber: "0x10",
      eth_getBalance: "0xffffffffffffffffffffffff",
    };
    const answer =
      method in results
        ? { jsonrpc: "2.0", id, result: results[method] }
        : { jsonrpc: "2.0", id, error: { code: -32603, message: "internal error" } };
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify(answer));
  });
});

describe("a quote whose chain node fails", () => {
  const stacks: RestAppStack[] = [];
  const sockets: Socket[] = [];
  // Accepts connections and never answers.
  const silent = createServer((socket) => void sockets.push(socket));
  let silentUrl: string;
  let refusedUrl: string;

  beforeAll(async () => {
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    await new Promise<void>((resolve) => failingCalls.listen(0, "127.0.0.1", resolve));
    silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    // A port that was just free and is closed again: connections to it are refused.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    refusedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
  });
  afterAll(async () => {
    for (const stack of stacks) await stack.stop();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
    await new Promise((resolve) => failingCalls.close(resolve));
  });

  async function apiWith(rpcUrl: string): Promise<string> {
    const stack = await startRestApp({}, { chains: () => chainsAt(rpcUrl) });
    stacks.push(stack);
    return stack.url;
  }

  const quote = {
    user: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    originChainId: 31338,
    destinationChainId: 31339,
    originCurrency: zeroAddress,
    destinationCurrency: zeroAddress,
    amount: "1000000000000000000",
    tradeType: "EXACT_INPUT",
  };

  it("answers 502 RPC_HTTP_ERROR when the node refuses the connection", async () => {
    const { status, body } = await postQuote(await apiWith(refusedUrl), quote);
    expect({ status, errorCode: body.errorCode }).toEqual({ status: 502, errorCode: "RPC_HTTP_ERROR" });
    expect(body.message).toMatch(/chain 3133[89]'s node failed/);
  });

  it("answers 504 REQUEST_TIMED_OUT when the node never answers", async () => {
    const { status, body } = await postQuote(await apiWith(silentUrl), quote);
    expect({ status, errorCode: body.errorCode }).toEqual({ status: 504, errorCode: "REQUEST_TIMED_OUT" });
  });

  it("answers 502 RPC_HTTP_ERROR when the node fails a contract read with an internal error (not a revert)", async () => {
    const url = `http://127.0.0.1:${(failingCalls.address() as AddressInfo).port}`;
    const { status, body } = await postQuote(await apiWith(url), {
      ...quote,
      originCurrency: USDC,
      destinationCurrency: USDC,
      amount: "100000000",
    });
    expect({ status, errorCode: body.errorCode }, JSON.stringify(body)).toEqual({
      status: 502,
      errorCode: "RPC_HTTP_ERROR",
    });
  });
});
