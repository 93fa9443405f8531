import { type Address, type Hex, maxUint256, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devnetWalletClient, type DevnetWalletClient } from "../devnet/devnetWalletClient.js";
import { freePort } from "../devnet/freePort.js";
import { devnetAccounts } from "../devnet/devnetAccounts.js";
import { type AnvilInstance, startAnvil } from "../devnet/startAnvil.js";
import { wrappedNativeArtifact } from "./artifacts.js";
import { wrappedNativeAbi } from "./abis.js";
import { revertOf } from "./revertOf.js";

const { solver: deployerKey, testAccounts } = devnetAccounts();

describe("WrappedNative (WETH9)", () => {
  let anvil: AnvilInstance;
  let alice: DevnetWalletClient;
  let bob: DevnetWalletClient;
  let weth: Address;

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 31364, port: await freePort(), blockTime: 0 });
    const client = (privateKey: Hex) =>
      devnetWalletClient({ rpcUrl: anvil.rpcUrl, chainId: anvil.chainId, privateKey });
    const deployer = client(deployerKey.privateKey);
    alice = client(testAccounts[0].privateKey);
    bob = client(testAccounts[1].privateKey);
    const hash = await deployer.deployContract({ ...wrappedNativeArtifact });
    weth = (await deployer.waitForTransactionReceipt({ hash })).contractAddress!;
  });
  afterAll(() => anvil?.stop());

  const mined = async (hash: Promise<Hex>) => {
    const receipt = await alice.waitForTransactionReceipt({ hash: await hash });
    expect(receipt.status).toBe("success");
    return receipt;
  };
  const balanceOf = (account: Address) =>
    alice.readContract({ address: weth, abi: wrappedNativeAbi, functionName: "balanceOf", args: [account] });
  const totalSupply = () => alice.readContract({ address: weth, abi: wrappedNativeAbi, functionName: "totalSupply" });
  const a = () => alice.account.address;
  const b = () => bob.account.address;

  it("is named WETH with 18 decimals", async () => {
    const read = (functionName: "name" | "symbol" | "decimals") =>
      alice.readContract({ address: weth, abi: wrappedNativeAbi, functionName });
    expect([await read("name"), await read("symbol"), await read("decimals"), await totalSupply()]).toEqual([
      "Wrapped Ether",
      "WETH",
      18,
      0n,
    ]);
  });

  it("wraps ether on deposit and on a plain transfer, one token per wei, with Deposit events", async () => {
    const before = await alice.getBalance({ address: a() });
    const receipt = await mined(
      alice.writeContract({ address: weth, abi: wrappedNativeAbi, functionName: "deposit", value: 1_000n }),
    );
    expect(parseEventLogs({ abi: wrappedNativeAbi, logs: receipt.logs, eventName: "Deposit" })[0].args).toEqual({
      dst: a(),
      wad: 1_000n,
    });
    const plain = await mined(alice.sendTransaction({ to: weth, value: 500n }));
    expect(await balanceOf(a())).toBe(1_500n);
    expect(await totalSupply()).toBe(1_500n);
    const gas = [receipt, plain].reduce((sum, r) => sum + r.gasUsed * r.effectiveGasPrice, 0n);
    expect(await alice.getBalance({ address: a() })).toBe(before - 1_500n - gas);
  });

  it("unwraps on withdraw with a Withdrawal event, and refuses more than the balance", async () => {
    const before = await alice.getBalance({ address: a() });
    const receipt = await mined(
      alice.writeContract({ address: weth, abi: wrappedNativeAbi, functionName: "withdraw", args: [400n] }),
    );
    expect(parseEventLogs({ abi: wrappedNativeAbi, logs: receipt.logs, eventName: "Withdrawal" })[0].args).toEqual({
      src: a(),
      wad: 400n,
    });
    expect(await alice.getBalance({ address: a() })).toBe(before + 400n - receipt.gasUsed * receipt.effectiveGasPrice);
    expect([await balanceOf(a()), await totalSupply()]).toEqual([1_100n, 1_100n]);
    const revert = await revertOf(
      alice.simulateContract({ address: weth, abi: wrappedNativeAbi, functionName: "withdraw", args: [1_101n] }),
    );
    expect(revert).toMatchObject({ errorName: "InsufficientBalance", args: [a(), 1_100n, 1_101n] });
  });

  it("transfers and spends allowances; the maximum allowance is never used up", async () => {
    await mined(
      alice.writeContract({ address: weth, abi: wrappedNativeAbi, functionName: "transfer", args: [b(), 100n] }),
    );
    await mined(
      alice.writeContract({ address: weth, abi: wrappedNativeAbi, functionName: "approve", args: [b(), 50n] }),
    );
    await mined(
      bob.writeContract({ address: weth, abi: wrappedNativeAbi, functionName: "transferFrom", args: [a(), b(), 30n] }),
    );
    const over = await revertOf(
      bob.simulateContract({
        address: weth,
        abi: wrappedNativeAbi,
        functionName: "transferFrom",
        args: [a(), b(), 21n],
      }),
    );
    expect(over).toMatchObject({ errorName: "InsufficientAllowance", args: [b(), 20n, 21n] });
    await mined(
      alice.writeContract({ address: weth, abi: wrappedNativeAbi, functionName: "approve", args: [b(), maxUint256] }),
    );
    await mined(
      bob.writeContract({ address: weth, abi: wrappedNativeAbi, functionName: "transferFrom", args: [a(), b(), 70n] }),
    );
    const allowance = await alice.readContract({
      address: weth,
      abi: wrappedNativeAbi,
      functionName: "allowance",
      args: [a(), b()],
    });
    expect(allowance).toBe(maxUint256);
    expect([await balanceOf(a()), await balanceOf(b()), await totalSupply()]).toEqual([900n, 200n, 1_100n]);
  });
});
