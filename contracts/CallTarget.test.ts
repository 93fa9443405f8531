import { type Address, type Hex, parseEther, parseEventLogs, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deployContracts, type DeployedContracts } from "../devnet/deployContracts.js";
import { devnetAccounts } from "../devnet/devnetAccounts.js";
import { devnetWalletClient, type DevnetWalletClient } from "../devnet/devnetWalletClient.js";
import { freePort } from "../devnet/freePort.js";
import { type AnvilInstance, startAnvil } from "../devnet/startAnvil.js";
import { callTargetAbi, testTokenAbi } from "./abis.js";
import { revertOf } from "./revertOf.js";

const { solver: deployer, testAccounts } = devnetAccounts();

describe("CallTarget", () => {
  let anvil: AnvilInstance;
  let deployed: DeployedContracts;
  let user: DevnetWalletClient;
  let beneficiary: Address;

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 31364, port: await freePort(), blockTime: 0 });
    deployed = await deployContracts({
      rpcUrl: anvil.rpcUrl,
      chainId: anvil.chainId,
      deployerPrivateKey: deployer.privateKey,
      solverAddress: deployer.address,
    });
    user = devnetWalletClient({ rpcUrl: anvil.rpcUrl, chainId: anvil.chainId, privateKey: testAccounts[0].privateKey });
    beneficiary = testAccounts[1].address;
  });
  afterAll(() => anvil?.stop());

  const mined = async (hash: Promise<Hex>) => {
    const receipt = await user.waitForTransactionReceipt({ hash: await hash });
    expect(receipt.status).toBe("success");
    return receipt;
  };
  const credited = (token: Address) =>
    user.readContract({
      address: deployed.callTarget,
      abi: callTargetAbi,
      functionName: "credited",
      args: [beneficiary, token],
    });

  /** Mints `amount` of `token` to the user and lets the CallTarget take it. */
  const fundAndApprove = async (token: Address, amount: bigint) => {
    await mined(
      user.writeContract({
        address: token,
        abi: testTokenAbi,
        functionName: "mint",
        args: [user.account.address, amount],
      }),
    );
    await mined(
      user.writeContract({
        address: token,
        abi: testTokenAbi,
        functionName: "approve",
        args: [deployed.callTarget, amount],
      }),
    );
  };

  it("credits native value and pulled tokens to the beneficiary, numbering deposits", async () => {
    const first = await mined(
      user.writeContract({
        address: deployed.callTarget,
        abi: callTargetAbi,
        functionName: "deposit",
        args: [beneficiary, zeroAddress, parseEther("1")],
        value: parseEther("1"),
      }),
    );
    const token = deployed.currencies[0].address;
    await fundAndApprove(token, 500n);
    const second = await mined(
      user.writeContract({
        address: deployed.callTarget,
        abi: callTargetAbi,
        functionName: "deposit",
        args: [beneficiary, token, 500n],
      }),
    );
    expect([await credited(zeroAddress), await credited(token)]).toEqual([parseEther("1"), 500n]);
    const events = [first, second].map(
      (r) => parseEventLogs({ abi: callTargetAbi, logs: r.logs, eventName: "Deposited" })[0].args,
    );
    expect(events.map((e) => e.sequence)).toEqual([0n, 1n]);
    expect(events[1]).toMatchObject({ beneficiary, token, amount: 500n, from: user.account.address });
  });

  it("refuses a native deposit whose value differs from the amount", async () => {
    const revert = await revertOf(
      user.simulateContract({
        address: deployed.callTarget,
        abi: callTargetAbi,
        functionName: "deposit",
        args: [beneficiary, zeroAddress, 2n],
        value: 1n,
      }),
    );
    expect(revert).toMatchObject({ errorName: "WrongValue", args: [1n, 2n] });
  });

  it("depositSolmate pulls approved tokens and, refused, reverts only TRANSFER_FROM_FAILED (the token's reason dropped)", async () => {
    const token = deployed.currencies[0].address;
    const deposit = (amount: bigint) => ({
      address: deployed.callTarget,
      abi: callTargetAbi,
      functionName: "depositSolmate" as const,
      args: [beneficiary, token, amount] as const,
    });
    const before = await credited(token);
    await fundAndApprove(token, 70n);
    await mined(user.writeContract(deposit(70n)));
    expect(await credited(token)).toBe(before + 70n);
    // The allowance is spent: the token refuses with InsufficientAllowance, which the vault does not pass on.
    expect(await revertOf(user.simulateContract(deposit(1n)))).toMatchObject({
      errorName: "Error",
      args: ["TRANSFER_FROM_FAILED"],
    });
  });

  it("alwaysReverts reverts with a reason string", async () => {
    const revert = await revertOf(
      user.readContract({ address: deployed.callTarget, abi: callTargetAbi, functionName: "alwaysReverts" }),
    );
    expect(revert).toMatchObject({ errorName: "Error", args: ["CallTarget: always reverts"] });
  });
});
