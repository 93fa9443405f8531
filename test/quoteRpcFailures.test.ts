import { type AddressInfo, type Socket, createServer } from "node:net";
import { zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chainConfigSchema } from "../src/chains/chainConfig.js";
import { postQuote } from "./support/postQuote.js";
import { type RestAppStack, startRestApp } from "./support/startRestApp.js";

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
    }),
  );
}

describe("a quote whose chain node fails", () => {
  const stacks: RestAppStack[] = [];
  const sockets: Socket[] = [];
  // Accepts connections and never answers.
  const silent = createServer((socket) => void sockets.push(socket));
  let silentUrl: string;
  let refusedUrl: string;

  beforeAll(async () => {
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
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
});
