import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evmChainConfigSchema } from "../src/chains/chainConfig.js";
import { createEvmChainClient } from "../src/chains/evm/evmChainClient.js";
import { createLogger } from "./createLogger.js";

const KEY = "SECRETKEY";

describe("createLogger", () => {
  // A provider that refuses every call, as one does a revoked or rate-limited key.
  const node = createServer((_, res) => res.writeHead(401, { "content-type": "text/plain" }).end("invalid key"));
  let rpcUrl = "";
  beforeAll(async () => {
    await new Promise<void>((resolve) => node.listen(0, "127.0.0.1", resolve));
    rpcUrl = `http://user:${KEY}@127.0.0.1:${(node.address() as AddressInfo).port}/v2/${KEY}?apikey=${KEY}`;
  });
  afterAll(() => new Promise<void>((resolve) => node.close(() => resolve())));

  const capture = () => {
    const lines: string[] = [];
    return { lines, logger: createLogger("debug", { write: (line: string) => void lines.push(line) }) };
  };

  it("logs a viem error of a keyed RPC URL without the key, keeping what went wrong and which host", async () => {
    const chain = evmChainConfigSchema.parse({
      vmType: "evm",
      id: 31338,
      name: "keyed",
      rpcUrl,
      depository: "0x0000000000000000000000000000000000000001",
      receiver: "0x0000000000000000000000000000000000000002",
      rpcBatchSize: 1,
    });
    const error = await createEvmChainClient(chain)
      .publicClient.getBlockNumber()
      .then(
        () => undefined,
        (caught: Error) => caught,
      );
    expect(error?.message).toContain(KEY);
    const { lines, logger } = capture();
    logger.error({ err: error }, "rpc failed");
    logger.warn({ error, chainId: 31338 }, "rpc failed");
    logger.warn({ details: { cause: error } }, "nested");
    logger.error(error);
    logger.warn(`rpc failed: ${error!.message}`);
    logger.info({ note: `retrying ${rpcUrl}` }, "note");
    expect(lines).toHaveLength(6);
    for (const line of lines) {
      expect(line).not.toContain(KEY);
      expect(line).not.toContain("/v2/");
    }
    const first = JSON.parse(lines[0]);
    expect(first.err.message).toContain("HTTP request failed");
    expect(first.err.message).toContain(`127.0.0.1:${(node.address() as AddressInfo).port}`);
    expect(JSON.parse(lines[3]).msg).toContain("HTTP request failed");
  });

  it("redacts keys that hold RPC URLs and secrets wherever a record has them", () => {
    const { lines, logger } = capture();
    const chain = { id: 1, rpcUrl: `https://node.example/v2/${KEY}`, wsUrl: `wss://node.example/${KEY}` };
    logger.info({ chain, rpcUrl: chain.rpcUrl, esploraUrl: `https://esplora.example/${KEY}` }, "chain");
    logger.info({ chains: [chain] }, "chains");
    logger.info({ privateKey: KEY, wif: KEY, xprv: KEY, secret: KEY }, "keys");
    for (const line of lines) expect(line).not.toContain(KEY);
    expect(JSON.parse(lines[0]).chain).toMatchObject({ id: 1, rpcUrl: "[redacted]" });
  });

  it("serializes what carries a message as an error does, and keeps other values' own form", () => {
    const { lines, logger } = capture();
    class SocketErrorEvent {
      readonly type = "error";
      constructor(readonly message: string) {}
    }
    logger.warn({ err: new SocketErrorEvent(`socket to wss://node.example/${KEY} closed`), at: new Date(0) }, "lost");
    const line = JSON.parse(lines[0]);
    expect(line.err).toMatchObject({ message: "socket to wss://node.example/[redacted] closed" });
    expect(line.at).toBe("1970-01-01T00:00:00.000Z");
  });

  it("leaves URLs without a path or credentials as they are (a listening address is worth logging)", () => {
    const { lines, logger } = capture();
    logger.info({ url: "http://127.0.0.1:4000" }, "api listening on http://127.0.0.1:4000/");
    expect(JSON.parse(lines[0])).toMatchObject({
      url: "http://127.0.0.1:4000",
      msg: "api listening on http://127.0.0.1:4000/",
    });
  });
});
