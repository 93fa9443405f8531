import { createServer, type Server } from "node:net";
import { createPublicClient, http, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { depositoryAbi, receiverAbi, testTokenAbi } from "../contracts/abis.js";
import { type ChainConfig, chainConfigSchema } from "../src/chains/chainConfig.js";
import { freePort } from "./freePort.js";
import { type DevnetChains, startDevnetChains } from "./startDevnetChains.js";

describe("startDevnetChains", () => {
  let devnet: DevnetChains;

  beforeAll(async () => {
    devnet = await startDevnetChains({ chainIds: [31371, 31372], blockTime: 0 });
  });
  afterAll(() => devnet?.stop());

  it("describes each chain as a valid chains-file entry", () => {
    expect(devnet.chains.map((c) => [c.id, c.name, c.displayName])).toEqual([
      [31371, "devnet-a", "Devnet A"],
      [31372, "devnet-b", "Devnet B"],
    ]);
    for (const chain of devnet.chains) {
      const parsed = chainConfigSchema.parse(chain);
      expect(parsed).toMatchObject({
        id: chain.id,
        depository: chain.depository,
        receiver: chain.receiver,
        blockTimeSeconds: 1,
      });
      const typed: ChainConfig = chain; // the devnet shape is usable wherever a ChainConfig is expected
      expect(typed.currencies.map((c) => c.symbol)).toEqual(["USDC", "WETH"]);
    }
  });

  it("deploys the contracts and funds the solver and test accounts on every chain", async () => {
    expect(devnet.accounts).toHaveLength(5);
    expect(devnet.solver.address).toBe("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    for (const chain of devnet.chains) {
      const client = createPublicClient({ transport: http(chain.rpcUrl), cacheTime: 0 });
      expect(await client.getChainId()).toBe(chain.id);
      for (const address of [chain.depository, chain.receiver, chain.callTarget])
        expect(await client.getCode({ address })).toMatch(/^0x[0-9a-f]{10,}/);
      expect(await client.readContract({ address: chain.depository, abi: depositoryAbi, functionName: "owner" })).toBe(
        devnet.solver.address,
      );
      expect(await client.readContract({ address: chain.receiver, abi: receiverAbi, functionName: "solver" })).toBe(
        devnet.solver.address,
      );
      for (const account of [devnet.solver, ...devnet.accounts]) {
        // anvil's 10,000 ether less the 1,000 each account wrapped into WETH and the gas of its wrap.
        expect(await client.getBalance({ address: account.address })).toBeGreaterThan(parseEther("8999"));
        const [usdc, weth] = chain.currencies;
        expect(
          await client.readContract({
            address: usdc.address,
            abi: testTokenAbi,
            functionName: "balanceOf",
            args: [account.address],
          }),
        ).toBe(10n ** 12n);
        expect(
          await client.readContract({
            address: weth.address,
            abi: testTokenAbi,
            functionName: "balanceOf",
            args: [account.address],
          }),
        ).toBe(10n ** 21n);
      }
    }
  });

  it("hands out accounts that sign on their own", async () => {
    const [user] = devnet.accounts;
    expect(user.privateKey).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await user.signMessage({ message: "hi" })).toMatch(/^0x/);
  });

  it("stops the chains it started when one fails to start", async () => {
    const { basePort, blocker } = await blockPortAfterAFreeOne();
    try {
      await expect(startDevnetChains({ chainIds: [31373, 31374], basePort, blockTime: 0 })).rejects.toThrow(
        /already in use/,
      );
      // The first chain started on basePort and must have been stopped again.
      const probe = createServer();
      await new Promise<void>((resolve, reject) => {
        probe.once("error", reject);
        probe.listen(basePort, "127.0.0.1", () => probe.close(() => resolve()));
      });
    } finally {
      await new Promise((r) => blocker.close(r));
    }
  });
});

/**
 * A free port and a server holding the port after it, so the second chain cannot start. The port
 * after a free one may belong to another test file's process, so a taken one is passed over.
 */
async function blockPortAfterAFreeOne(): Promise<{ basePort: number; blocker: Server }> {
  for (let attempt = 0; ; attempt++) {
    const basePort = await freePort();
    const blocker = createServer();
    const bound = await new Promise<boolean>((resolve) => {
      blocker.once("error", () => resolve(false));
      blocker.listen(basePort + 1, "127.0.0.1", () => resolve(true));
    });
    if (bound) return { basePort, blocker };
    if (attempt === 20) throw new Error("no free pair of adjacent ports");
  }
}
