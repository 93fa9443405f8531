import { parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testTokenAbi } from "../contracts/abis.js";
import { deployContracts, type DeployedContracts } from "./deployContracts.js";
import { devnetAccounts } from "./devnetAccounts.js";
import { devnetWalletClient } from "./devnetWalletClient.js";
import { freePort } from "./freePort.js";
import { fundAccounts } from "./fundAccounts.js";
import { type AnvilInstance, startAnvil } from "./startAnvil.js";

const { solver, testAccounts } = devnetAccounts();

describe("fundAccounts", () => {
  let anvil: AnvilInstance;
  let deployed: DeployedContracts;

  beforeAll(async () => {
    // With a block time, to check that the back-to-back mints all land.
    anvil = await startAnvil({ chainId: 31393, port: await freePort(), blockTime: 1 });
    deployed = await deployContracts({
      rpcUrl: anvil.rpcUrl,
      chainId: anvil.chainId,
      deployerPrivateKey: solver.privateKey,
      solverAddress: solver.address,
    });
  });
  afterAll(() => anvil.stop());

  it("mints 1,000,000 USDC to each account, and each wraps 1,000 WETH of its own ether", async () => {
    const recipients = [solver, ...testAccounts];
    await fundAccounts({
      rpcUrl: anvil.rpcUrl,
      chainId: anvil.chainId,
      funderPrivateKey: solver.privateKey,
      currencies: deployed.currencies,
      recipients,
    });
    const client = devnetWalletClient({ rpcUrl: anvil.rpcUrl, chainId: anvil.chainId, privateKey: solver.privateKey });
    const [usdc, weth] = deployed.currencies;
    for (const { address: account } of recipients) {
      // Its own 1,000 ether went into WETH (anvil's 10,000 less the wrap and a little gas).
      const ether = await client.getBalance({ address: account });
      expect(ether < parseUnits("9000", 18) && ether > parseUnits("8999", 18)).toBe(true);
      expect(
        await client.readContract({
          address: usdc.address,
          abi: testTokenAbi,
          functionName: "balanceOf",
          args: [account],
        }),
      ).toBe(1_000_000_000_000n);
      expect(
        await client.readContract({
          address: weth.address,
          abi: testTokenAbi,
          functionName: "balanceOf",
          args: [account],
        }),
      ).toBe(parseUnits("1000", 18));
    }
    expect(await client.readContract({ address: usdc.address, abi: testTokenAbi, functionName: "totalSupply" })).toBe(
      6n * 1_000_000_000_000n,
    );
    // WETH is wrapped ether: its supply is the ether it holds.
    expect(await client.readContract({ address: weth.address, abi: testTokenAbi, functionName: "totalSupply" })).toBe(
      parseUnits("6000", 18),
    );
    expect(await client.getBalance({ address: weth.address })).toBe(parseUnits("6000", 18));
  });
});
