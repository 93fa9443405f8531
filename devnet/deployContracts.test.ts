import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { depositoryAbi, receiverAbi, testTokenAbi } from "../contracts/abis.js";
import { deployContracts, type DeployedContracts } from "./deployContracts.js";
import { devnetAccounts } from "./devnetAccounts.js";
import { devnetWalletClient } from "./devnetWalletClient.js";
import { freePort } from "./freePort.js";
import { type AnvilInstance, startAnvil } from "./startAnvil.js";

const { solver } = devnetAccounts();

describe("deployContracts", () => {
  const anvils: AnvilInstance[] = [];
  let deployed: DeployedContracts[];

  beforeAll(async () => {
    for (const chainId of [31391, 31392])
      anvils.push(await startAnvil({ chainId, port: await freePort(), blockTime: 0 }));
    deployed = await Promise.all(
      anvils.map((a) =>
        deployContracts({
          rpcUrl: a.rpcUrl,
          chainId: a.chainId,
          deployerPrivateKey: solver.privateKey,
          solverAddress: solver.address,
        }),
      ),
    );
  });
  afterAll(async () => {
    await Promise.all(anvils.map((a) => a.stop()));
  });

  it("deploys every contract, wired to the solver", async () => {
    const [d] = deployed;
    const client = devnetWalletClient({
      rpcUrl: anvils[0].rpcUrl,
      chainId: anvils[0].chainId,
      privateKey: solver.privateKey,
    });
    for (const address of [d.depository, d.receiver, d.callTarget, ...d.currencies.map((c) => c.address)]) {
      expect((await client.getCode({ address }))?.length ?? 0).toBeGreaterThan(2);
    }
    expect(await client.readContract({ address: d.depository, abi: depositoryAbi, functionName: "owner" })).toBe(
      solver.address,
    );
    expect(await client.readContract({ address: d.receiver, abi: receiverAbi, functionName: "solver" })).toBe(
      solver.address,
    );
    expect(
      d.currencies.map(({ symbol, name, decimals, wrapsNative }) => ({ symbol, name, decimals, wrapsNative })),
    ).toEqual([
      { symbol: "USDC", name: "USD Coin", decimals: 6, wrapsNative: undefined },
      { symbol: "WETH", name: "Wrapped Ether", decimals: 18, wrapsNative: true },
    ]);
    for (const c of d.currencies) {
      expect(await client.readContract({ address: c.address, abi: testTokenAbi, functionName: "symbol" })).toBe(
        c.symbol,
      );
      expect(await client.readContract({ address: c.address, abi: testTokenAbi, functionName: "decimals" })).toBe(
        c.decimals,
      );
    }
    expect(d.startBlock).toBe(1); // automine: the first deployment is block 1
  });

  it("gives the same addresses on every fresh chain", () => {
    expect(deployed[1]).toEqual(deployed[0]);
  });
});
