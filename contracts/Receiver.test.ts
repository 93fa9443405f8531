import {
  type Address,
  decodeErrorResult,
  encodeFunctionData,
  type Hex,
  keccak256,
  maxUint256,
  parseEther,
  parseEventLogs,
  toHex,
  zeroAddress,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devnetWalletClient, type DevnetWalletClient } from "../devnet/devnetWalletClient.js";
import { type DevnetChain, type DevnetChains, startDevnetChains } from "../devnet/startDevnetChains.js";
import { callExecutorAbi, callTargetAbi, receiverAbi, testTokenAbi, wrappedNativeAbi } from "./abis.js";
import { revertOf } from "./revertOf.js";

type Call = { to: Address; value: bigint; data: Hex };
const requestId = (label: string) => keccak256(toHex(`receiver-test:${label}`));

describe("Receiver", () => {
  let devnet: DevnetChains;
  let chain: DevnetChain;
  let solver: DevnetWalletClient;
  let user: DevnetWalletClient;
  let usdc: Address;
  let recipient: Address;
  let beneficiary: Address;
  let executor: Address;

  beforeAll(async () => {
    devnet = await startDevnetChains({ chainIds: [31362], blockTime: 0 });
    chain = devnet.chains[0];
    const client = (privateKey: Hex) => devnetWalletClient({ rpcUrl: chain.rpcUrl, chainId: chain.id, privateKey });
    solver = client(devnet.solver.privateKey);
    user = client(devnet.accounts[0].privateKey);
    usdc = chain.currencies[0].address;
    recipient = devnet.accounts[1].address;
    beneficiary = devnet.accounts[2].address;
    executor = await solver.readContract({ address: chain.receiver, abi: receiverAbi, functionName: "executor" });
    // The solver lets the Receiver pull its tokens once, as the fill job does at startup.
    await mined(
      solver.writeContract({
        address: usdc,
        abi: testTokenAbi,
        functionName: "approve",
        args: [chain.receiver, maxUint256],
      }),
    );
  });
  afterAll(() => devnet?.stop());

  const mined = async (hash: Promise<Hex>) => {
    const receipt = await solver.waitForTransactionReceipt({ hash: await hash });
    expect(receipt.status).toBe("success");
    return receipt;
  };
  const fill = (
    id: Hex,
    currency: Address,
    amount: bigint,
    to: Address,
    calls: Call[] = [],
    value = currency === zeroAddress ? amount : 0n,
  ) =>
    mined(
      solver.writeContract({
        address: chain.receiver,
        abi: receiverAbi,
        functionName: "fill",
        args: [id, currency, amount, to, calls],
        value,
      }),
    );
  const simulateFill = (
    from: DevnetWalletClient,
    id: Hex,
    currency: Address,
    amount: bigint,
    to: Address,
    calls: Call[] = [],
    value = currency === zeroAddress ? amount : 0n,
  ) =>
    from.simulateContract({
      address: chain.receiver,
      abi: receiverAbi,
      functionName: "fill",
      args: [id, currency, amount, to, calls],
      value,
    });
  const usdcOf = (account: Address) =>
    solver.readContract({ address: usdc, abi: testTokenAbi, functionName: "balanceOf", args: [account] });
  const isFilled = (id: Hex) =>
    solver.readContract({ address: chain.receiver, abi: receiverAbi, functionName: "filled", args: [id] });
  const credited = (who: Address, token: Address) =>
    solver.readContract({
      address: chain.callTarget,
      abi: callTargetAbi,
      functionName: "credited",
      args: [who, token],
    });
  const depositCall = (token: Address, amount: bigint, value = 0n, who = beneficiary): Call => ({
    to: chain.callTarget,
    value,
    data: encodeFunctionData({ abi: callTargetAbi, functionName: "deposit", args: [who, token, amount] }),
  });
  const approveCall = (amount: bigint): Call => ({
    to: usdc,
    value: 0n,
    data: encodeFunctionData({ abi: testTokenAbi, functionName: "approve", args: [chain.callTarget, amount] }),
  });
  /** A call that asks the Receiver to fill again, with no calls of its own. */
  const reenterCall = (id: Hex, currency: Address, amount: bigint, to: Address): Call => ({
    to: chain.receiver,
    value: 0n,
    data: encodeFunctionData({ abi: receiverAbi, functionName: "fill", args: [id, currency, amount, to, []] }),
  });
  /** The revert data carried by CallFailed(index, reason), decoded. */
  const innerReason = (reason: unknown) =>
    decodeErrorResult({ abi: [...testTokenAbi, ...receiverAbi], data: reason as Hex });

  it("fills native currency straight to the recipient and emits Fill", async () => {
    const id = requestId("native");
    const before = await solver.getBalance({ address: recipient });
    const receipt = await fill(id, zeroAddress, parseEther("2"), recipient);
    expect(await solver.getBalance({ address: recipient })).toBe(before + parseEther("2"));
    expect(await solver.getBalance({ address: chain.receiver })).toBe(0n);
    const [event] = parseEventLogs({ abi: receiverAbi, logs: receipt.logs, eventName: "Fill" });
    expect(event.args).toEqual({
      requestId: id,
      solver: devnet.solver.address,
      currency: zeroAddress,
      recipient,
      amount: parseEther("2"),
    });
    expect(await isFilled(id)).toBe(true);
  });

  it("fills an ERC-20 from the solver straight to the recipient", async () => {
    const [solverBefore, recipientBefore] = [await usdcOf(devnet.solver.address), await usdcOf(recipient)];
    const receipt = await fill(requestId("erc20"), usdc, 12_345_678n, recipient);
    expect(await usdcOf(recipient)).toBe(recipientBefore + 12_345_678n);
    expect(await usdcOf(devnet.solver.address)).toBe(solverBefore - 12_345_678n);
    expect(parseEventLogs({ abi: receiverAbi, logs: receipt.logs, eventName: "Fill" })[0].args).toMatchObject({
      currency: usdc,
      recipient,
      amount: 12_345_678n,
    });
  });

  it("refuses a second fill of the same request id", async () => {
    const revert = await revertOf(simulateFill(solver, requestId("native"), zeroAddress, 1n, recipient));
    expect(revert).toMatchObject({ errorName: "AlreadyFilled", args: [requestId("native")] });
    // Even in another currency: the id alone decides.
    expect((await revertOf(simulateFill(solver, requestId("native"), usdc, 1n, recipient))).errorName).toBe(
      "AlreadyFilled",
    );
  });

  it("accepts fills from the solver only", async () => {
    expect((await revertOf(simulateFill(user, requestId("intruder"), zeroAddress, 1n, recipient))).errorName).toBe(
      "NotSolver",
    );
  });

  it("requires the native value to match the amount", async () => {
    const revert = await revertOf(
      simulateFill(solver, requestId("short"), zeroAddress, parseEther("1"), recipient, [], parseEther("0.9")),
    );
    expect(revert).toMatchObject({ errorName: "WrongNativeAmount", args: [parseEther("0.9"), parseEther("1")] });
    expect((await revertOf(simulateFill(solver, requestId("stray"), usdc, 1n, recipient, [], 1n))).errorName).toBe(
      "UnexpectedValue",
    );
  });

  it("runs ERC-20 calls in order from its executor and sweeps the rest to the recipient", async () => {
    const recipientBefore = await usdcOf(recipient);
    const creditedBefore = await credited(beneficiary, usdc);
    const receipt = await fill(requestId("erc20-calls"), usdc, 100_000_000n, recipient, [
      approveCall(60_000_000n),
      depositCall(usdc, 60_000_000n),
    ]);
    expect(await credited(beneficiary, usdc)).toBe(creditedBefore + 60_000_000n);
    expect(await usdcOf(recipient)).toBe(recipientBefore + 40_000_000n);
    expect(await usdcOf(chain.receiver)).toBe(0n);
    expect(await usdcOf(executor)).toBe(0n);
    const [deposited] = parseEventLogs({ abi: callTargetAbi, logs: receipt.logs, eventName: "Deposited" });
    expect(deposited.args).toMatchObject({ beneficiary, token: usdc, amount: 60_000_000n, from: executor });

    // The same calls the other way round: the deposit runs before the approval and fails.
    const id = requestId("erc20-calls-reversed");
    const revert = await revertOf(
      simulateFill(solver, id, usdc, 100_000_000n, recipient, [
        depositCall(usdc, 60_000_000n),
        approveCall(60_000_000n),
      ]),
    );
    expect(revert).toMatchObject({ errorName: "CallFailed", args: [0n, expect.any(String)] });
    expect(innerReason(revert.args[1])).toMatchObject({
      errorName: "InsufficientAllowance",
      args: [chain.callTarget, 0n, 60_000_000n],
    });
    expect(await isFilled(id)).toBe(false);
  });

  it("runs native calls with their value, in order, and sends what is left to the recipient", async () => {
    const other = devnet.accounts[3].address;
    const before = await solver.getBalance({ address: recipient });
    const receipt = await fill(requestId("native-calls"), zeroAddress, parseEther("1"), recipient, [
      depositCall(zeroAddress, parseEther("0.3"), parseEther("0.3")),
      depositCall(zeroAddress, parseEther("0.2"), parseEther("0.2"), other),
    ]);
    expect(await credited(beneficiary, zeroAddress)).toBe(parseEther("0.3"));
    expect(await credited(other, zeroAddress)).toBe(parseEther("0.2"));
    expect(await solver.getBalance({ address: recipient })).toBe(before + parseEther("0.5"));
    expect(await solver.getBalance({ address: chain.receiver })).toBe(0n);
    expect(await solver.getBalance({ address: executor })).toBe(0n);
    const events = parseEventLogs({ abi: callTargetAbi, logs: receipt.logs, eventName: "Deposited" });
    expect(events.map((e) => e.args.beneficiary)).toEqual([beneficiary, other]);
    expect(events[1].args.sequence).toBe(events[0].args.sequence + 1n);
  });

  it("unwraps through its executor: the ether a call sends back goes to the recipient", async () => {
    const weth = chain.currencies.find((currency) => currency.wrapsNative)!.address;
    await mined(
      solver.writeContract({
        address: weth,
        abi: wrappedNativeAbi,
        functionName: "approve",
        args: [chain.receiver, maxUint256],
      }),
    );
    const before = await solver.getBalance({ address: recipient });
    const withdraw: Call = {
      to: weth,
      value: 0n,
      data: encodeFunctionData({ abi: wrappedNativeAbi, functionName: "withdraw", args: [parseEther("0.25")] }),
    };
    await fill(requestId("unwrap"), weth, parseEther("0.25"), recipient, [withdraw]);
    expect(await solver.getBalance({ address: recipient })).toBe(before + parseEther("0.25"));
    expect(await solver.getBalance({ address: executor })).toBe(0n);
  });

  it("reverts the whole fill with CallFailed(index, reason) when a call fails", async () => {
    const id = requestId("failing-call");
    const alwaysReverts: Call = {
      to: chain.callTarget,
      value: 0n,
      data: encodeFunctionData({ abi: callTargetAbi, functionName: "alwaysReverts" }),
    };
    const revert = await revertOf(
      simulateFill(solver, id, zeroAddress, parseEther("1"), recipient, [
        depositCall(zeroAddress, 1n, 1n),
        alwaysReverts,
      ]),
    );
    expect(revert).toMatchObject({ errorName: "CallFailed", args: [1n, expect.any(String)] });
    expect(innerReason(revert.args[1])).toMatchObject({ errorName: "Error", args: ["CallTarget: always reverts"] });
    expect(await isFilled(id)).toBe(false);
    // Nothing was used up: the request can still be filled.
    await fill(id, zeroAddress, parseEther("1"), recipient);
    expect(await isFilled(id)).toBe(true);
  });

  it("cannot be re-entered from its own calls, nor made to call its executor", async () => {
    const reenter = reenterCall(requestId("inner"), zeroAddress, 0n, recipient);
    const revert = await revertOf(
      simulateFill(solver, requestId("outer"), zeroAddress, 1n, recipient, [depositCall(zeroAddress, 0n), reenter]),
    );
    expect(revert).toMatchObject({ errorName: "ForbiddenTarget", args: [1n, chain.receiver] });
    const toExecutor: Call = { to: executor, value: 0n, data: "0x" };
    expect(
      await revertOf(simulateFill(solver, requestId("outer"), zeroAddress, 1n, recipient, [toExecutor])),
    ).toMatchObject({ errorName: "ForbiddenTarget", args: [0n, executor] });
    // Nobody but the Receiver may have the executor run calls.
    for (const caller of [user, solver])
      expect(
        (
          await revertOf(
            caller.simulateContract({
              address: executor,
              abi: callExecutorAbi,
              functionName: "execute",
              args: [zeroAddress, recipient, []],
            }),
          )
        ).errorName,
      ).toBe("NotReceiver");
  });

  it("takes no stray ether, and calls may spend only the fill's", async () => {
    // Nothing legitimate sends the Receiver ether outside a fill: it refuses it rather than hold it.
    await expect(user.estimateGas({ to: chain.receiver, value: parseEther("1") })).rejects.toThrow(/revert/i);
    const overspend = await revertOf(
      simulateFill(solver, requestId("overspend"), zeroAddress, parseEther("0.1"), recipient, [
        depositCall(zeroAddress, parseEther("0.5"), parseEther("0.5")),
      ]),
    );
    // The executor holds the fill's 0.1 only: the call runs out of funds (no revert data).
    expect(overspend).toMatchObject({ errorName: "CallFailed", args: [0n, "0x"] });
  });

  it("reverts when the token refuses the recipient", async () => {
    const blockedRecipient = devnet.accounts[4].address;
    await mined(
      solver.writeContract({
        address: usdc,
        abi: testTokenAbi,
        functionName: "setBlocked",
        args: [blockedRecipient, true],
      }),
    );
    try {
      const direct = await revertOf(simulateFill(solver, requestId("blocked"), usdc, 1_000_000n, blockedRecipient));
      expect(direct).toMatchObject({ errorName: "Blocked", args: [blockedRecipient] });
      // With calls, the sweep of the leftover hits the same wall.
      const swept = await revertOf(
        simulateFill(solver, requestId("blocked-calls"), usdc, 1_000_000n, blockedRecipient, [approveCall(0n)]),
      );
      expect(swept).toMatchObject({ errorName: "Blocked", args: [blockedRecipient] });
    } finally {
      await mined(
        solver.writeContract({
          address: usdc,
          abi: testTokenAbi,
          functionName: "setBlocked",
          args: [blockedRecipient, false],
        }),
      );
    }
    await fill(requestId("blocked"), usdc, 1_000_000n, blockedRecipient);
  });

  describe("destination calls never reach the solver's funds", () => {
    // Someone with no funds of their own here: any balance it ends with was taken.
    const attackerKey = generatePrivateKey();
    const attacker = () => privateKeyToAccount(attackerKey).address;
    const transferFromCall = (token: Address, from: Address, to: Address, amount: bigint): Call => ({
      to: token,
      value: 0n,
      data: encodeFunctionData({ abi: testTokenAbi, functionName: "transferFrom", args: [from, to, amount] }),
    });
    const transferCall = (token: Address, to: Address, amount: bigint): Call => ({
      to: token,
      value: 0n,
      data: encodeFunctionData({ abi: testTokenAbi, functionName: "transfer", args: [to, amount] }),
    });
    /** Sends the fill for real, with a fixed gas limit so a revert lands instead of failing the estimate. */
    const attempt = async (id: Hex, currency: Address, amount: bigint, calls: Call[]) => {
      const hash = await solver.writeContract({
        address: chain.receiver,
        abi: receiverAbi,
        functionName: "fill",
        args: [id, currency, amount, recipient, calls],
        value: currency === zeroAddress ? amount : 0n,
        gas: 2_000_000n,
      });
      return (await solver.waitForTransactionReceipt({ hash })).status;
    };
    const balances = async () => ({
      solverUsdc: await usdcOf(devnet.solver.address),
      receiverUsdc: await usdcOf(chain.receiver),
      attackerUsdc: await usdcOf(attacker()),
      receiverEth: await solver.getBalance({ address: chain.receiver }),
      attackerEth: await solver.getBalance({ address: attacker() }),
    });

    it("a call cannot transferFrom the solver, on a native fill or a token fill", async () => {
      const before = await balances();
      const steal = transferFromCall(usdc, devnet.solver.address, attacker(), 500_000_000n);
      const onNative = await revertOf(
        simulateFill(solver, requestId("steal-native"), zeroAddress, 1n, recipient, [steal]),
      );
      expect(onNative).toMatchObject({ errorName: "CallFailed", args: [0n, expect.any(String)] });
      expect(innerReason(onNative.args[1]).errorName).toBe("InsufficientAllowance");
      expect(await attempt(requestId("steal-native"), zeroAddress, 1n, [steal])).toBe("reverted");
      expect(await attempt(requestId("steal-token"), usdc, 1n, [steal])).toBe("reverted");
      expect(await balances()).toEqual(before);
    });

    it("a call cannot spend what the Receiver holds, in tokens or ether", async () => {
      // Stray funds sent to the Receiver by mistake: no fill's calls may take them.
      await mined(
        solver.writeContract({
          address: usdc,
          abi: testTokenAbi,
          functionName: "transfer",
          args: [chain.receiver, 7_000_000n],
        }),
      );
      await solver.request({
        method: "anvil_setBalance" as never,
        params: [chain.receiver, toHex(parseEther("3"))] as never,
      });
      const before = await balances();
      expect(await attempt(requestId("take-tokens"), usdc, 1n, [transferCall(usdc, attacker(), 7_000_001n)])).toBe(
        "reverted",
      );
      expect(
        await attempt(requestId("take-ether"), zeroAddress, 1n, [
          { to: attacker(), value: parseEther("3") + 1n, data: "0x" },
        ]),
      ).toBe("reverted");
      expect(await balances()).toEqual(before);
    });

    it("a call cannot re-enter fill", async () => {
      const reenter = reenterCall(requestId("reentered"), usdc, 5_000_000n, attacker());
      const before = await balances();
      expect(await attempt(requestId("reenter"), zeroAddress, 1n, [reenter])).toBe("reverted");
      expect(await isFilled(requestId("reentered"))).toBe(false);
      expect(await balances()).toEqual(before);
    });

    it("an approval a call grants a third party reaches nothing, then or in a later fill", async () => {
      const approveAttacker: Call = {
        to: usdc,
        value: 0n,
        data: encodeFunctionData({ abi: testTokenAbi, functionName: "approve", args: [attacker(), maxUint256] }),
      };
      // The approval itself is allowed (the calls' own tokens are theirs to approve), and the fill succeeds.
      await fill(requestId("approve-attacker"), usdc, 2_000_000n, recipient, [approveAttacker]);
      const before = await balances();
      // A later, honest fill with calls passes through the same contract that granted the approval.
      await fill(requestId("after-approval"), usdc, 10_000_000n, recipient, [
        approveCall(10_000_000n),
        depositCall(usdc, 10_000_000n),
      ]);
      const thief = devnetWalletClient({
        rpcUrl: chain.rpcUrl,
        chainId: chain.id,
        privateKey: attackerKey,
      });
      // The calls ran in the executor: the approval is the executor's, not the Receiver's.
      const approver = await solver.readContract({
        address: chain.receiver,
        abi: receiverAbi,
        functionName: "executor",
      });
      expect(
        await solver.readContract({
          address: usdc,
          abi: testTokenAbi,
          functionName: "allowance",
          args: [approver, attacker()],
        }),
      ).toBe(maxUint256);
      expect(await usdcOf(approver)).toBe(0n);
      for (const from of [approver, devnet.solver.address, chain.receiver]) {
        const pull = await revertOf(
          thief.simulateContract({
            address: usdc,
            abi: testTokenAbi,
            functionName: "transferFrom",
            args: [from, attacker(), 1n],
          }),
        );
        expect(["InsufficientAllowance", "InsufficientBalance"]).toContain(pull.errorName);
      }
      expect((await balances()).attackerUsdc).toBe(before.attackerUsdc);
      expect((await balances()).solverUsdc).toBe(before.solverUsdc - 10_000_000n);
    });
  });
});
