import { describe, expect, it } from "vitest";
import { privateKeyToAccount } from "viem/accounts";
import { parseConfig } from "../../src/config.js";
import { hypevmFactories } from "./hypevmFactories.js";

describe("hypevmFactories", () => {
  it("starts the devnet exchange as chain 1337 with its accounts' keys, a worker that signs and a gateway that cannot", async () => {
    const devnet = await hypevmFactories.devnet({
      config: parseConfig({}),
      keys: { solverPrivateKey: undefined, depositoryPrivateKey: undefined },
    });
    try {
      const [chain] = devnet.chains;
      if (chain?.vmType !== "hypevm") throw new Error("expected the exchange's chain");
      expect(chain).toMatchObject({ id: 1337, nativeCurrency: { symbol: "USDC", decimals: 8 } });
      expect(devnet.manifest.chains).toEqual([
        expect.objectContaining({ id: 1337, vmType: "hypevm", exchangeUrl: chain.exchangeUrl }),
      ]);
      expect(privateKeyToAccount(devnet.keys.solverPrivateKey as `0x${string}`).address).toBe(chain.solver);
      expect(privateKeyToAccount(devnet.keys.depositoryPrivateKey as `0x${string}`).address).toBe(chain.depository);

      const worker = hypevmFactories.adapter(chain, hypevmFactories.roleKeys(devnet.keys, "worker"), {});
      expect(Object.keys(worker).sort()).toEqual(["deposits", "quoter", "refunder", "solver"]);
      expect(hypevmFactories.roleKeys(devnet.keys, "api")).toEqual({});
      // The exchange's clock is its head; the solver's funds are readable through the quoter.
      expect(await worker.quoter.headHeight()).toBeGreaterThanOrEqual(BigInt(chain.startBlock));
      expect(await worker.quoter.balanceOf(chain.solver!, worker.quoter.nativeCurrency)).toBe(1_000_000_000_000_000n);
      // A key that is not the account's is refused at once, not at the first transfer.
      expect(() =>
        hypevmFactories.adapter(chain, { solverPrivateKey: devnet.keys.depositoryPrivateKey as `0x${string}` }, {}),
      ).toThrow(/solver key of chain 1337/);
      expect(hypevmFactories.pollerChain!(chain, undefined as never).chainId).toBe(1337);
    } finally {
      await devnet.stop();
    }
  });
});
