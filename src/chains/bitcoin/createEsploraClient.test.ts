import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BroadcastRefusedError } from "./BroadcastRefusedError.js";
import { createEsploraClient } from "./createEsploraClient.js";

describe("createEsploraClient", () => {
  // A stand-in Esplora: a tip, a 404, a 500 and one that never answers.
  const server = createServer((request, response) => {
    if (request.url === "/blocks/tip/height") return void response.end("812\n");
    if (request.url === "/fee-estimates" || request.url === "/down/tx")
      return void response.writeHead(500).end("electrs down");
    if (request.url === "/address/slow/utxo") return;
    if (request.url === "/tx")
      return void request
        .on("data", () => {})
        .on("end", () => response.writeHead(400).end("sendrawtransaction RPC error"));
    response.writeHead(404).end("Transaction not found");
  });
  let url = "";
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("reads what Esplora answers, 404 as nothing", async () => {
    const client = createEsploraClient({ esploraUrl: url, chainId: 8253038 });
    expect(await client.tipHeight()).toBe(812);
    expect(await client.tx("ab".repeat(32))).toBeUndefined();
  });

  it("tells the node's refusal of a transaction from a failure to reach it", async () => {
    const client = createEsploraClient({ esploraUrl: url, chainId: 8253038 });
    const refused = await client.broadcast("00").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BroadcastRefusedError);
    expect(refused).toMatchObject({ errorCode: "RPC_HTTP_ERROR", message: expect.stringMatching(/refused/) });
    // A 5xx, a dead port: no refusal (the transaction may have got through).
    const down = createEsploraClient({ esploraUrl: `${url}/down`, chainId: 8253038 });
    const unreachable = createEsploraClient({ esploraUrl: "http://127.0.0.1:1", chainId: 8253038 });
    for (const failing of [down, unreachable]) {
      const error = await failing.broadcast("00").catch((caught: unknown) => caught);
      expect(error).toMatchObject({ errorCode: "RPC_HTTP_ERROR" });
      expect(error).not.toBeInstanceOf(BroadcastRefusedError);
    }
  });

  it("turns failures into the domain's retryable errors", async () => {
    const client = createEsploraClient({ esploraUrl: url, chainId: 8253038, timeoutMs: 200 });
    await expect(client.feeEstimates()).rejects.toMatchObject({ errorCode: "RPC_HTTP_ERROR", retryable: true });
    await expect(client.utxos("slow")).rejects.toMatchObject({ errorCode: "REQUEST_TIMED_OUT", retryable: true });
    const unreachable = createEsploraClient({ esploraUrl: "http://127.0.0.1:1", chainId: 8253038 });
    await expect(unreachable.tipHeight()).rejects.toMatchObject({ errorCode: "RPC_HTTP_ERROR" });
  });
});
