import { randomBytes } from "node:crypto";
import { type Address, encodeFunctionData, erc20Abi, getAddress, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callTargetAbi, depositoryAbi } from "../contracts/abis.js";
import { devnetWalletClient } from "../devnet/devnetWalletClient.js";
import { DEBUG_FORCE_REFUND_REFERRER } from "../jobs/createFillProcessor.js";
import { createApiKey } from "../src/apiKeys/createApiKey.js";
import { createEvmChainClient } from "../src/chains/evm/evmChainClient.js";
import { blockTokenRecipient } from "./support/blockTokenRecipient.js";
import { pollStatus } from "./support/pollStatus.js";
import { postGraphql } from "./support/postGraphql.js";
import { postBridgeQuote, postQuote } from "./support/postQuote.js";
import { harmlessCall, revertCallsBeforeFill } from "./support/revertingCalls.js";
import { route } from "./support/route.js";
import { sendSteps } from "./support/sendSteps.js";
import { runRefundsCommand } from "../apps/runRefundsCommand.js";
import { refundChecks } from "./support/refundChecks.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";

/**
 * Every failure ends with the deposit back with its depositor (less the refund's gas), checked to the wei
 * on the user, the Depository and the solver; and no request is paid twice. The flows every origin family shares (the
 * solver's refusal, ORDER_EXPIRED) run over each devnet family in failedDepositRefunded.e2e.test.ts.
 */
describe("failures and refunds, end to end", () => {
  let stack: TestStack;
  let checks: ReturnType<typeof refundChecks>;
  beforeAll(async () => {
    stack = await startTestStack();
    checks = refundChecks(stack);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const setup = () => {
    const [origin, destination] = stack.devnet.chains;
    const token = (chain: typeof origin) => chain.currencies.find((c) => c.symbol === "USDC")!.address as Address;
    return {
      origin,
      destination,
      originClient: createEvmChainClient(origin),
      destinationClient: createEvmChainClient(destination),
      usdcIn: token(origin),
      usdcOut: token(destination),
    };
  };
  it("refunds a request whose destination call reverts (EXECUTION_REVERTED)", async () => {
    const { origin, destination, originClient } = setup();
    const user = stack.devnet.accounts[0];
    const value = 10n ** 16n;
    const quote = await postQuote(stack.api.url, {
      user: user.address,
      ...route(origin, destination),
      amount: value.toString(),
      tradeType: "EXACT_OUTPUT",
      txs: [harmlessCall(destination.callTarget, user.address)],
    });
    expect(quote.status).toBe(200);
    const requestId = quote.body.requestId;
    await revertCallsBeforeFill(stack.pool, requestId, destination.callTarget);
    const deposited = BigInt(quote.body.details.currencyIn.amount);
    const before = await checks.balancesBefore(originClient, user.address, zeroAddress);
    const { deposit } = await sendSteps(quote.body, user, origin);
    const { last } = await pollStatus(stack.api.url, requestId, { until: ["refund"] });
    expect(last).toMatchObject({ status: "refund", failReason: "EXECUTION_REVERTED", refundFailReason: "N/A" });
    expect((last.details as Record<string, unknown>).message).toMatch(/^destination call 0 reverts/);
    expect(await checks.events(requestId)).toEqual(["waiting", "pending", "failure", "refund"]);
    const refund = await checks.expectRefunded({
      requestId,
      chainClient: originClient,
      currency: zeroAddress,
      user: user.address,
      depositTx: deposit,
      deposited,
      ...before,
    });
    expect(last.txHashes).toEqual([refund.tx_hash]);
    // The record names the call that failed in simulation: no transaction was sent, so no hash or block.
    const key = await createApiKey(stack.pool, stack.serverKey, { name: "reader" });
    const listed = await fetch(`${stack.api.url}/requests/v3?id=${requestId}`, {
      headers: { "x-api-key": key.key },
    }).then((response) => response.json());
    // What the refund returned, in the deposit's currency (ETH of the origin), at the quote's price.
    expect(listed.requests[0].data.refundCurrencyData).toMatchObject({
      currency: { chainId: origin.id, address: zeroAddress, symbol: "ETH" },
      amount: refund.amount,
      amountUsd: expect.stringMatching(/^\d+(\.\d+)?$/),
    });
    const graphql = await postGraphql(
      stack.api.url,
      `query ($id: String!) { request(id: $id) { refundCurrencyData { amount } } }`,
      {
        id: requestId,
      },
    );
    expect(graphql.data.request.refundCurrencyData).toEqual({ amount: refund.amount });
    expect(listed.requests[0].data).toMatchObject({
      failReason: "EXECUTION_REVERTED",
      failedTxHash: null,
      failedTxBlockNumber: null,
      failedCallData: {
        from: stack.devnet.solver.address,
        to: getAddress(destination.receiver),
        value: value.toString(),
      },
    });
  });

  it("refunds in the token when the token refuses the recipient (DESTINATION_TX_FAILED)", async () => {
    const { origin, destination, originClient, destinationClient, usdcIn, usdcOut } = setup();
    const user = stack.devnet.accounts[1];
    const recipient = `0x${randomBytes(20).toString("hex")}` as Address;
    await blockTokenRecipient(destination, usdcOut, recipient, stack.devnet.solver.privateKey);
    const quote = await postQuote(stack.api.url, {
      user: user.address,
      recipient,
      ...route(origin, destination, usdcIn, usdcOut),
      amount: "20000000",
      tradeType: "EXACT_INPUT",
    });
    const requestId = quote.body.requestId;
    const before = await checks.balancesBefore(originClient, user.address, usdcIn);
    await sendSteps(quote.body, user, origin);
    const { last } = await pollStatus(stack.api.url, requestId, { until: ["refund"] });
    expect(last).toMatchObject({ status: "refund", failReason: "DESTINATION_TOKEN_TRANSFER_REJECTED" });
    expect(last.details).toMatchObject({
      errorCode: "DESTINATION_TX_FAILED",
      message: `the recipient ${getAddress(recipient)} cannot receive USDC`,
    });
    await checks.expectRefunded({
      requestId,
      chainClient: originClient,
      currency: usdcIn,
      user: user.address,
      deposited: 20_000_000n,
      ...before,
    });
    expect(await destinationClient.balanceOf(recipient, usdcOut)).toBe(0n);
  });

  it("refunds an underpayment, a deposit in the wrong currency and one on the wrong chain", async () => {
    const { origin, destination, originClient, destinationClient, usdcIn, usdcOut } = setup();
    const user = stack.devnet.accounts[3];
    const body = {
      user: user.address,
      ...route(origin, destination),
      amount: "40000000000000000",
      tradeType: "EXACT_INPUT",
    };

    // Underpayment: half the quoted value.
    const under = await postQuote(stack.api.url, body);
    const originWallet = devnetWalletClient({ rpcUrl: origin.rpcUrl, chainId: origin.id, privateKey: user.privateKey });
    let before = await checks.balancesBefore(originClient, user.address, zeroAddress);
    const item = under.body.steps[0].items[0].data;
    const half = await originWallet.sendTransaction({ to: item.to, data: item.data, value: 20_000_000_000_000_000n });
    expect((await pollStatus(stack.api.url, under.body.requestId, { until: ["refund"] })).last.failReason).toBe(
      "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL",
    );
    await checks.expectRefunded({
      requestId: under.body.requestId,
      chainClient: originClient,
      currency: zeroAddress,
      user: user.address,
      depositTx: half,
      deposited: 20_000_000_000_000_000n,
      ...before,
    });

    // Wrong currency: USDC deposited against an ETH order.
    const wrongCurrency = await postQuote(stack.api.url, body);
    before = await checks.balancesBefore(originClient, user.address, usdcIn);
    await originClient.publicClient.waitForTransactionReceipt({
      hash: await originWallet.writeContract({
        address: usdcIn,
        abi: erc20Abi,
        functionName: "approve",
        args: [origin.depository as Address, 5_000_000n],
      }),
      pollingInterval: 50,
    });
    await originWallet.writeContract({
      address: origin.depository as Address,
      abi: depositoryAbi,
      functionName: "depositErc20",
      args: [user.address, usdcIn, 5_000_000n, wrongCurrency.body.protocol.v2.orderId],
    });
    expect((await pollStatus(stack.api.url, wrongCurrency.body.requestId, { until: ["refund"] })).last.failReason).toBe(
      "INCORRECT_DEPOSIT_CURRENCY",
    );
    await checks.expectRefunded({
      requestId: wrongCurrency.body.requestId,
      chainClient: originClient,
      currency: usdcIn,
      user: user.address,
      deposited: 5_000_000n,
      ...before,
    });

    // Wrong chain: the origin chain's order paid into the destination chain's Depository.
    const wrongChain = await postQuote(stack.api.url, body);
    const destinationWallet = devnetWalletClient({
      rpcUrl: destination.rpcUrl,
      chainId: destination.id,
      privateKey: user.privateKey,
    });
    before = await checks.balancesBefore(destinationClient, user.address, zeroAddress);
    const misplaced = await destinationWallet.writeContract({
      address: destination.depository as Address,
      abi: depositoryAbi,
      functionName: "depositNative",
      args: [user.address, wrongChain.body.protocol.v2.orderId],
      value: 40_000_000_000_000_000n,
    });
    expect((await pollStatus(stack.api.url, wrongChain.body.requestId, { until: ["refund"] })).last.failReason).toBe(
      "DEPOSIT_CHAIN_MISMATCH",
    );
    await checks.expectRefunded({
      requestId: wrongChain.body.requestId,
      chainClient: destinationClient,
      currency: zeroAddress,
      user: user.address,
      depositTx: misplaced,
      deposited: 40_000_000_000_000_000n,
      ...before,
    });
    expect(usdcOut).toBeDefined();
  });

  it("fills a doubly paid order once and refunds the second deposit as a child request (DOUBLE_SPEND)", async () => {
    const { origin, destination, originClient, destinationClient } = setup();
    const user = stack.devnet.accounts[4];
    const recipient = `0x${randomBytes(20).toString("hex")}` as Address;
    const quote = await postBridgeQuote(stack.api.url, user, { origin, destination }, 50_000_000_000_000_000n, {
      recipient,
    });
    const requestId = quote.body.requestId;
    const first = await sendSteps(quote.body, user, origin);
    expect((await pollStatus(stack.api.url, requestId)).last.status).toBe("success");
    const before = await checks.balancesBefore(originClient, user.address, zeroAddress);
    const second = await sendSteps(quote.body, user, origin);
    expect(first.deposit).not.toBe(second.deposit);

    // The duplicate is a request of its own, listed with its parent when child requests are asked for.
    const key = await createApiKey(stack.pool, stack.serverKey, { name: "double-spend reader" });
    // Waiting for the child polls often enough to meet the key's rate limit: a 429 is waited out, as a client would.
    const list = async (query: string): Promise<Array<{ id: string; status: string; data: any }>> => {
      for (;;) {
        const response = await fetch(`${stack.api.url}/requests/v3?${query}`, { headers: { "x-api-key": key.key } });
        if (response.status !== 429) return (await response.json()).requests;
        await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get("retry-after") ?? 1) * 1000));
      }
    };
    const family = await checks.waitFor(
      () => list(`id=${requestId}&includeChildRequests=true`),
      (requests) => requests.length === 2,
      "the child request",
    );
    const child = family.find((r) => r.id !== requestId)!;
    expect(child.data.inTxs.map((tx: { txHash: string }) => tx.txHash)).toEqual([second.deposit]);
    expect((await list(`id=${requestId}`)).map((r) => r.id)).toEqual([requestId]);

    const refund = await checks.expectRefunded({
      requestId: child.id,
      chainClient: originClient,
      currency: zeroAddress,
      user: user.address,
      depositTx: second.deposit,
      deposited: 50_000_000_000_000_000n,
      ...before,
    });
    expect(refund).toMatchObject({ reason: "DOUBLE_SPEND", refunds_request: true });
    // Its depositor follows it by id, like any request.
    const { last } = await pollStatus(stack.api.url, child.id, { until: ["refund"] });
    expect(last).toMatchObject({ status: "refund", failReason: "DOUBLE_SPEND", txHashes: [refund.tx_hash] });
    expect(await checks.events(child.id)).toEqual(["waiting", "failure", "refund"]);
    expect(await destinationClient.publicClient.getBalance({ address: recipient })).toBe(
      BigInt(quote.body.details.currencyOut.amount),
    );
    expect(await checks.events(requestId)).toEqual(["waiting", "pending", "submitted", "success"]);
  });

  it("leaves a deposit its refund's gas would eat with NEGATIVE_NEW_AMOUNT_AFTER_FEES", async () => {
    const { origin, destination } = setup();
    const user = stack.devnet.accounts[0];
    const quote = await postBridgeQuote(stack.api.url, user, { origin, destination }, 60_000_000_000_000_000n);
    const wallet = devnetWalletClient({ rpcUrl: origin.rpcUrl, chainId: origin.id, privateKey: user.privateKey });
    await wallet.writeContract({
      address: origin.depository as Address,
      abi: depositoryAbi,
      functionName: "depositNative",
      args: [user.address, quote.body.protocol.v2.orderId],
      value: 1000n,
    });
    const refund = await checks.waitFor(
      async () => (await checks.refundsOf(quote.body.requestId))[0],
      (r) => r?.status === "unrefundable",
      "an unrefundable refund",
    );
    expect(refund.refund_fail_reason).toBe("NEGATIVE_NEW_AMOUNT_AFTER_FEES");
    const { last } = await pollStatus(stack.api.url, quote.body.requestId, { until: ["failure"] });
    expect(last).toMatchObject({
      status: "failure",
      failReason: "DEPOSITED_AMOUNT_TOO_LOW_TO_FILL",
      refundFailReason: "NEGATIVE_NEW_AMOUNT_AFTER_FEES",
    });
  });

  it("marks a refund the chain refuses MANUAL_REFUND_REQUIRED, and pays it once an operator retries it elsewhere", async () => {
    const { origin, destination, originClient, usdcIn, usdcOut } = setup();
    const user = stack.devnet.accounts[1];
    const blocked = `0x${randomBytes(20).toString("hex")}` as Address;
    const rescue = `0x${randomBytes(20).toString("hex")}` as Address;
    await blockTokenRecipient(origin, usdcIn, blocked, stack.devnet.solver.privateKey);
    const quote = await postQuote(stack.api.url, {
      user: user.address,
      refundTo: blocked,
      ...route(origin, destination, usdcIn, usdcOut),
      amount: "3000000",
      tradeType: "EXACT_INPUT",
      referrer: DEBUG_FORCE_REFUND_REFERRER,
    });
    const requestId = quote.body.requestId;
    await sendSteps(quote.body, user, origin);
    const stuck = await checks.waitFor(
      async () => (await checks.refundsOf(requestId))[0],
      (r) => r?.status === "manual",
      "a refund needing an operator",
    );
    expect(stuck.refund_fail_reason).toBe("MANUAL_REFUND_REQUIRED");
    expect((await pollStatus(stack.api.url, requestId, { until: ["failure"] })).last).toMatchObject({
      refundFailReason: "MANUAL_REFUND_REQUIRED",
    });

    const printed: string[] = [];
    expect(await runRefundsCommand(stack.pool, ["list"], (line) => printed.push(line))).toBe(0);
    expect(printed.map((line) => JSON.parse(line))).toContainEqual(
      expect.objectContaining({ id: stuck.id, requestId, refundFailReason: "MANUAL_REFUND_REQUIRED" }),
    );
    expect(await runRefundsCommand(stack.pool, ["retry", stuck.id, "--to", rescue], (line) => printed.push(line))).toBe(
      0,
    );

    const { last } = await pollStatus(stack.api.url, requestId, { until: ["refund"], timeoutMs: 30_000 });
    expect(last).toMatchObject({ status: "refund", failReason: "MANUAL_ADMIN_REFUND", refundFailReason: "N/A" });
    const [paid] = await checks.refundsOf(requestId);
    expect(paid).toMatchObject({ status: "confirmed", recipient: rescue.toLowerCase() });
    expect(await originClient.balanceOf(rescue, usdcIn)).toBe(BigInt(paid.amount));
    expect(await originClient.balanceOf(blocked, usdcIn)).toBe(0n);
  });

  it("fills a late deposit re-priced within latePaymentSlippageTolerance, and an overpayment in full", async () => {
    const { origin, destination, destinationClient } = setup();
    const user = stack.devnet.accounts[3];
    const recipient = `0x${randomBytes(20).toString("hex")}` as Address;
    const body = {
      user: user.address,
      recipient,
      ...route(origin, destination),
      amount: "80000000000000000",
      tradeType: "EXACT_INPUT",
    };
    const late = await postQuote(stack.api.url, { ...body, latePaymentSlippageTolerance: "100" });
    await stack.pool.query("UPDATE crossfill.requests SET deadline = now() - interval '1 minute' WHERE id = $1", [
      late.body.requestId,
    ]);
    await sendSteps(late.body, user, origin);
    expect((await pollStatus(stack.api.url, late.body.requestId)).last.status).toBe("success");
    // Prices have not moved, so the re-priced output is the quoted one.
    const out = BigInt(late.body.details.currencyOut.amount);
    expect(await destinationClient.publicClient.getBalance({ address: recipient })).toBe(out);

    const over = await postQuote(stack.api.url, body);
    const wallet = devnetWalletClient({ rpcUrl: origin.rpcUrl, chainId: origin.id, privateKey: user.privateKey });
    const item = over.body.steps[0].items[0].data;
    await wallet.sendTransaction({ to: item.to, data: item.data, value: 2n * 80_000_000_000_000_000n });
    expect((await pollStatus(stack.api.url, over.body.requestId)).last.status).toBe("success");
    expect(await destinationClient.publicClient.getBalance({ address: recipient })).toBe(
      out + 2n * BigInt(over.body.details.currencyOut.amount),
    );
  });

  it("refunds when the solver no longer holds what it quoted (SOLVER_BALANCE_TOO_LOW)", async () => {
    const { origin, destination, originClient, destinationClient } = setup();
    const user = stack.devnet.accounts[2];
    const wethIn = origin.currencies.find((c) => c.symbol === "WETH")!.address as Address;
    const wethOut = destination.currencies.find((c) => c.symbol === "WETH")!.address as Address;
    const amount = 600n * 10n ** 18n;
    const quote = await postQuote(stack.api.url, {
      user: user.address,
      ...route(origin, destination, wethIn, wethOut),
      amount: amount.toString(),
      tradeType: "EXACT_INPUT",
    });
    expect(quote.status).toBe(200);
    // The solver's inventory leaves between the quote and the fill.
    const solverWallet = devnetWalletClient({
      rpcUrl: destination.rpcUrl,
      chainId: destination.id,
      privateKey: stack.devnet.solver.privateKey,
    });
    const inventory = await destinationClient.balanceOf(stack.devnet.solver.address, wethOut);
    await destinationClient.publicClient.waitForTransactionReceipt({
      hash: await solverWallet.writeContract({
        address: wethOut,
        abi: erc20Abi,
        functionName: "transfer",
        args: [`0x${"dd".repeat(20)}`, inventory - 10n ** 18n],
      }),
      pollingInterval: 50,
    });
    const before = await checks.balancesBefore(originClient, user.address, wethIn);
    await sendSteps(quote.body, user, origin);
    const { last } = await pollStatus(stack.api.url, quote.body.requestId, { until: ["refund"] });
    expect(last.failReason).toBe("SOLVER_BALANCE_TOO_LOW");
    await checks.expectRefunded({
      requestId: quote.body.requestId,
      chainClient: originClient,
      currency: wethIn,
      user: user.address,
      deposited: amount,
      ...before,
    });
  });
});
