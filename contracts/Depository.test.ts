import { type Address, keccak256, parseEther, parseEventLogs, toHex, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devnetWalletClient, type DevnetWalletClient } from "../devnet/devnetWalletClient.js";
import { type DevnetChain, type DevnetChains, startDevnetChains } from "../devnet/startDevnetChains.js";
import { depositoryAbi, testTokenAbi } from "./abis.js";
import { revertOf } from "./revertOf.js";

const orderId = (label: string) => keccak256(toHex(`depository-test:${label}`));

describe("Depository", () => {
  let devnet: DevnetChains;
  let chain: DevnetChain;
  let solver: DevnetWalletClient;
  let user: DevnetWalletClient;
  let usdc: Address;

  beforeAll(async () => {
    devnet = await startDevnetChains({ chainIds: [31361], blockTime: 0 });
    chain = devnet.chains[0];
    const client = (privateKey: `0x${string}`) =>
      devnetWalletClient({ rpcUrl: chain.rpcUrl, chainId: chain.id, privateKey });
    solver = client(devnet.solver.privateKey);
    user = client(devnet.accounts[0].privateKey);
    usdc = chain.currencies[0].address;
  });
  afterAll(() => devnet?.stop());

  const send = async (hash: Promise<`0x${string}`>) => {
    const receipt = await user.waitForTransactionReceipt({ hash: await hash });
    expect(receipt.status).toBe("success");
    return receipt;
  };
  const tokenBalance = (token: Address, account: Address) =>
    user.readContract({ address: token, abi: testTokenAbi, functionName: "balanceOf", args: [account] });

  it("is owned by the solver", async () => {
    expect(await user.readContract({ address: chain.depository, abi: depositoryAbi, functionName: "owner" })).toBe(
      devnet.solver.address,
    );
  });

  it("records a native deposit for the given depositor", async () => {
    // The depositor is an argument, not msg.sender: a relayer may deposit for a user.
    const depositor = devnet.accounts[1].address;
    const receipt = await send(
      user.writeContract({
        address: chain.depository,
        abi: depositoryAbi,
        functionName: "depositNative",
        args: [depositor, orderId("native")],
        value: parseEther("1.5"),
      }),
    );
    const [event] = parseEventLogs({ abi: depositoryAbi, logs: receipt.logs, eventName: "Deposit" });
    expect(event.address).toBe(chain.depository.toLowerCase());
    expect(event.args).toEqual({
      orderId: orderId("native"),
      depositor,
      currency: zeroAddress,
      amount: parseEther("1.5"),
    });
    expect(await user.getBalance({ address: chain.depository })).toBe(parseEther("1.5"));
  });

  it("refuses a native deposit of nothing", async () => {
    const revert = await revertOf(
      user.simulateContract({
        address: chain.depository,
        abi: depositoryAbi,
        functionName: "depositNative",
        args: [user.account.address, orderId("zero")],
        value: 0n,
      }),
    );
    expect(revert.errorName).toBe("ZeroAmount");
  });

  it("records an ERC-20 deposit pulled from the sender", async () => {
    const amount = 250_000_000n; // 250 USDC
    const before = await tokenBalance(usdc, user.account.address);
    await send(
      user.writeContract({
        address: usdc,
        abi: testTokenAbi,
        functionName: "approve",
        args: [chain.depository, amount],
      }),
    );
    const receipt = await send(
      user.writeContract({
        address: chain.depository,
        abi: depositoryAbi,
        functionName: "depositErc20",
        args: [user.account.address, usdc, amount, orderId("erc20")],
      }),
    );
    const [event] = parseEventLogs({ abi: depositoryAbi, logs: receipt.logs, eventName: "Deposit" });
    expect(event.args).toEqual({ orderId: orderId("erc20"), depositor: user.account.address, currency: usdc, amount });
    expect(await tokenBalance(usdc, user.account.address)).toBe(before - amount);
    expect(await tokenBalance(usdc, chain.depository)).toBe(amount);
  });

  it("surfaces the token's own error when the transfer is refused", async () => {
    const noAllowance = await revertOf(
      user.simulateContract({
        address: chain.depository,
        abi: depositoryAbi,
        functionName: "depositErc20",
        args: [user.account.address, usdc, 1n, orderId("no-allowance")],
      }),
    );
    expect(noAllowance).toMatchObject({ errorName: "InsufficientAllowance", args: [chain.depository, 0n, 1n] });

    const notAToken = await revertOf(
      user.simulateContract({
        address: chain.depository,
        abi: depositoryAbi,
        functionName: "depositErc20",
        args: [user.account.address, devnet.accounts[2].address, 1n, orderId("eoa")],
      }),
    );
    expect(notAToken.errorName).toBe("NotAContract");
  });

  it("lets only the owner withdraw, native and ERC-20, with a Withdrawal event", async () => {
    const to = devnet.accounts[3].address;
    const notOwner = await revertOf(
      user.simulateContract({
        address: chain.depository,
        abi: depositoryAbi,
        functionName: "withdraw",
        args: [orderId("native"), zeroAddress, to, 1n],
      }),
    );
    expect(notOwner.errorName).toBe("NotOwner");

    const ethBefore = await user.getBalance({ address: to });
    const nativeRefund = await send(
      solver.writeContract({
        address: chain.depository,
        abi: depositoryAbi,
        functionName: "withdraw",
        args: [orderId("native"), zeroAddress, to, parseEther("1.5")],
      }),
    );
    expect(parseEventLogs({ abi: depositoryAbi, logs: nativeRefund.logs, eventName: "Withdrawal" })[0].args).toEqual({
      orderId: orderId("native"),
      currency: zeroAddress,
      to,
      amount: parseEther("1.5"),
    });
    expect(await user.getBalance({ address: to })).toBe(ethBefore + parseEther("1.5"));

    const usdcBefore = await tokenBalance(usdc, to);
    const tokenRefund = await send(
      solver.writeContract({
        address: chain.depository,
        abi: depositoryAbi,
        functionName: "withdraw",
        args: [orderId("erc20"), usdc, to, 250_000_000n],
      }),
    );
    expect(
      parseEventLogs({ abi: depositoryAbi, logs: tokenRefund.logs, eventName: "Withdrawal" })[0].args,
    ).toMatchObject({ currency: usdc, to, amount: 250_000_000n });
    expect(await tokenBalance(usdc, to)).toBe(usdcBefore + 250_000_000n);
    expect(await tokenBalance(usdc, chain.depository)).toBe(0n);
  });

  it("does not withdraw more than it holds", async () => {
    const revert = await revertOf(
      solver.simulateContract({
        address: chain.depository,
        abi: depositoryAbi,
        functionName: "withdraw",
        args: [orderId("x"), usdc, devnet.accounts[3].address, 1n],
      }),
    );
    expect(revert.errorName).toBe("InsufficientBalance");
  });
});
