import { Connection, PublicKey } from "@solana/web3.js";
import bs58 from "bs58";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config.js";
import { svmFactories } from "./svmFactories.js";

describe("svmFactories", () => {
  it("starts the devnet Solana as a chain of the service, its manifest entry and its keys, then stops it", async () => {
    const devnet = await svmFactories.devnet({
      config: parseConfig({ DEVNET_SOLANA_SLOT_MS: "0" }),
      keys: { solverSecretKey: undefined, depositorySecretKey: undefined },
    });
    try {
      const [chain] = devnet.chains;
      if (chain?.vmType !== "svm") throw new Error("expected the Solana chain");
      expect(chain).toMatchObject({ id: 792703809, vmType: "svm", nativeCurrency: { symbol: "SOL", decimals: 9 } });
      expect(devnet.manifest.chains).toEqual([expect.objectContaining({ id: 792703809, vmType: "svm" })]);
      const solver = bs58.decode(devnet.keys.solverSecretKey!);
      expect(new PublicKey(solver.subarray(32)).toBase58()).toBe(chain.solver);
      const connection = new Connection(chain.rpcUrl, "confirmed");
      expect(await connection.getBalance(new PublicKey(chain.depository))).toBeGreaterThan(0);
      const poller = svmFactories.pollerChain!(chain, undefined as never);
      expect(poller.chainId).toBe(792703809);
    } finally {
      await devnet.stop();
    }
  });
});
