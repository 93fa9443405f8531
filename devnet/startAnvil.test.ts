import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { createPublicClient, http } from "viem";
import { freePort } from "./freePort.js";
import { startAnvil } from "./startAnvil.js";

describe("startAnvil", () => {
  it("starts an automining chain with the requested id and stops it", async () => {
    const port = await freePort();
    const anvil = await startAnvil({ chainId: 31381, port, blockTime: 0 });
    try {
      expect(anvil.rpcUrl).toBe(`http://127.0.0.1:${port}`);
      expect(anvil.wsUrl).toBe(`ws://127.0.0.1:${port}`);
      const client = createPublicClient({ transport: http(anvil.rpcUrl) });
      expect(await client.getChainId()).toBe(31381);
    } finally {
      await anvil.stop();
    }
    expect(() => process.kill(anvil.pid, 0)).toThrow();
    await anvil.stop(); // idempotent
  });

  it("mines blocks on its own with a block time", async () => {
    const anvil = await startAnvil({ chainId: 31382, port: await freePort(), blockTime: 1 });
    try {
      const blockNumber = async () => {
        const res = await fetch(anvil.rpcUrl, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
        });
        return BigInt(((await res.json()) as { result: string }).result);
      };
      const first = await blockNumber();
      await new Promise((r) => setTimeout(r, 1300));
      expect(await blockNumber()).toBeGreaterThan(first);
    } finally {
      await anvil.stop();
    }
  });

  it("rejects clearly when the port is taken", async () => {
    const port = await freePort();
    const server = createServer();
    await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
    try {
      await expect(startAnvil({ chainId: 31383, port, blockTime: 0 })).rejects.toThrow(/already in use/);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it("rejects when anvil exits early, with its message", async () => {
    await expect(
      startAnvil({ chainId: 31384, port: await freePort(), mnemonic: "not a valid mnemonic" }),
    ).rejects.toThrow(/exited before it was ready.*\S/);
  });

  it("refuses the reserved chain ids", async () => {
    await expect(startAnvil({ chainId: 1337, port: await freePort() })).rejects.toThrow(/reserved/);
  });
});
