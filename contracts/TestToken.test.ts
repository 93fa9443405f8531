import { type Address, type Hex, maxUint256, parseEventLogs, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devnetWalletClient, type DevnetWalletClient } from "../devnet/devnetWalletClient.js";
import { freePort } from "../devnet/freePort.js";
import { devnetAccounts } from "../devnet/devnetAccounts.js";
import { type AnvilInstance, startAnvil } from "../devnet/startAnvil.js";
import { testTokenArtifact } from "./artifacts.js";
import { testTokenAbi } from "./abis.js";
import { revertOf } from "./revertOf.js";

const { solver: deployerKey, testAccounts } = devnetAccounts();

describe("TestToken", () => {
  let anvil: AnvilInstance;
  let owner: DevnetWalletClient;
  let alice: DevnetWalletClient;
  let bob: DevnetWalletClient;
  let token: Address;

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 31363, port: await freePort(), blockTime: 0 });
    const client = (privateKey: Hex) =>
      devnetWalletClient({ rpcUrl: anvil.rpcUrl, chainId: anvil.chainId, privateKey });
    owner = client(deployerKey.privateKey);
    alice = client(testAccounts[0].privateKey);
    bob = client(testAccounts[1].privateKey);
    const hash = await owner.deployContract({ ...testTokenArtifact, args: ["Test Dollar", "TUSD", 6] });
    token = (await owner.waitForTransactionReceipt({ hash })).contractAddress!;
  });
  afterAll(() => anvil?.stop());

  const mined = async (hash: Promise<Hex>) => {
    const receipt = await owner.waitForTransactionReceipt({ hash: await hash });
    expect(receipt.status).toBe("success");
    return receipt;
  };
  const read = <F extends "name" | "symbol" | "decimals" | "totalSupply" | "owner">(functionName: F) =>
    owner.readContract({ address: token, abi: testTokenAbi, functionName });
  const balanceOf = (account: Address) =>
    owner.readContract({ address: token, abi: testTokenAbi, functionName: "balanceOf", args: [account] });
  const allowance = (from: Address, spender: Address) =>
    owner.readContract({ address: token, abi: testTokenAbi, functionName: "allowance", args: [from, spender] });
  const a = () => alice.account.address;
  const b = () => bob.account.address;

  it("takes name, symbol and decimals from its constructor; the deployer owns it", async () => {
    expect([await read("name"), await read("symbol"), await read("decimals"), await read("totalSupply")]).toEqual([
      "Test Dollar",
      "TUSD",
      6,
      0n,
    ]);
    expect(await read("owner")).toBe(owner.account.address);
  });

  it("lets anyone mint, with a Transfer from the zero address", async () => {
    const receipt = await mined(
      bob.writeContract({ address: token, abi: testTokenAbi, functionName: "mint", args: [a(), 1_000n] }),
    );
    expect(parseEventLogs({ abi: testTokenAbi, logs: receipt.logs, eventName: "Transfer" })[0].args).toEqual({
      from: zeroAddress,
      to: a(),
      value: 1_000n,
    });
    expect(await balanceOf(a())).toBe(1_000n);
    expect(await read("totalSupply")).toBe(1_000n);
  });

  it("transfers, and refuses more than the balance", async () => {
    const receipt = await mined(
      alice.writeContract({ address: token, abi: testTokenAbi, functionName: "transfer", args: [b(), 300n] }),
    );
    expect(parseEventLogs({ abi: testTokenAbi, logs: receipt.logs, eventName: "Transfer" })[0].args).toEqual({
      from: a(),
      to: b(),
      value: 300n,
    });
    expect([await balanceOf(a()), await balanceOf(b())]).toEqual([700n, 300n]);
    const revert = await revertOf(
      alice.simulateContract({ address: token, abi: testTokenAbi, functionName: "transfer", args: [b(), 701n] }),
    );
    expect(revert).toMatchObject({ errorName: "InsufficientBalance", args: [a(), 700n, 701n] });
  });

  it("approves and spends allowances; the maximum allowance is never used up", async () => {
    const approval = await mined(
      alice.writeContract({ address: token, abi: testTokenAbi, functionName: "approve", args: [b(), 200n] }),
    );
    expect(parseEventLogs({ abi: testTokenAbi, logs: approval.logs, eventName: "Approval" })[0].args).toEqual({
      owner: a(),
      spender: b(),
      value: 200n,
    });
    await mined(
      bob.writeContract({ address: token, abi: testTokenAbi, functionName: "transferFrom", args: [a(), b(), 150n] }),
    );
    expect(await allowance(a(), b())).toBe(50n);
    const revert = await revertOf(
      bob.simulateContract({ address: token, abi: testTokenAbi, functionName: "transferFrom", args: [a(), b(), 51n] }),
    );
    expect(revert).toMatchObject({ errorName: "InsufficientAllowance", args: [b(), 50n, 51n] });

    await mined(
      alice.writeContract({ address: token, abi: testTokenAbi, functionName: "approve", args: [b(), maxUint256] }),
    );
    await mined(
      bob.writeContract({ address: token, abi: testTokenAbi, functionName: "transferFrom", args: [a(), b(), 10n] }),
    );
    expect(await allowance(a(), b())).toBe(maxUint256);
  });

  it("blocks transfers to and from a blocked account; only the owner sets the block list", async () => {
    const notOwner = await revertOf(
      alice.simulateContract({ address: token, abi: testTokenAbi, functionName: "setBlocked", args: [b(), true] }),
    );
    expect(notOwner.errorName).toBe("NotOwner");

    await mined(
      owner.writeContract({ address: token, abi: testTokenAbi, functionName: "setBlocked", args: [b(), true] }),
    );
    expect(
      await owner.readContract({ address: token, abi: testTokenAbi, functionName: "isBlocked", args: [b()] }),
    ).toBe(true);
    const to = await revertOf(
      alice.simulateContract({ address: token, abi: testTokenAbi, functionName: "transfer", args: [b(), 1n] }),
    );
    expect(to).toMatchObject({ errorName: "Blocked", args: [b()] });
    const from = await revertOf(
      bob.simulateContract({ address: token, abi: testTokenAbi, functionName: "transfer", args: [a(), 1n] }),
    );
    expect(from).toMatchObject({ errorName: "Blocked", args: [b()] });
    const viaAllowance = await revertOf(
      bob.simulateContract({ address: token, abi: testTokenAbi, functionName: "transferFrom", args: [a(), b(), 1n] }),
    );
    expect(viaAllowance).toMatchObject({ errorName: "Blocked", args: [b()] });
    const mint = await revertOf(
      alice.simulateContract({ address: token, abi: testTokenAbi, functionName: "mint", args: [b(), 1n] }),
    );
    expect(mint).toMatchObject({ errorName: "Blocked", args: [b()] });

    await mined(
      owner.writeContract({ address: token, abi: testTokenAbi, functionName: "setBlocked", args: [b(), false] }),
    );
    await mined(alice.writeContract({ address: token, abi: testTokenAbi, functionName: "transfer", args: [b(), 1n] }));
  });

  it("refuses transfers to the zero address", async () => {
    const revert = await revertOf(
      alice.simulateContract({ address: token, abi: testTokenAbi, functionName: "transfer", args: [zeroAddress, 1n] }),
    );
    expect(revert.errorName).toBe("InvalidReceiver");
  });
});
