import { type Address, type Hex, encodeFunctionData, erc20Abi, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { callTargetAbi } from "../contracts/abis.js";
import { devnetWalletClient } from "../devnet/devnetWalletClient.js";
import { HEAD_WATCHER_SOURCE } from "../schema/chainFacts.js";
import { createEvmChainClient } from "../src/chains/evm/evmChainClient.js";
import { GAS_ESTIMATES } from "../src/chains/evm/gasEstimates.js";
import { pollStatus } from "./support/pollStatus.js";
import { postBridgeQuote, postQuote } from "./support/postQuote.js";
import { route } from "./support/route.js";
import { sendSteps } from "./support/sendSteps.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";

describe("intent flows, end to end", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const chains = () => {
    const [origin, destination] = stack.devnet.chains;
    const token = (chain: typeof origin, symbol: string) =>
      chain.currencies.find((c) => c.symbol === symbol)!.address as Address;
    return {
      origin,
      destination,
      originClient: createEvmChainClient(origin),
      destinationClient: createEvmChainClient(destination),
      usdcIn: token(origin, "USDC"),
      usdcOut: token(destination, "USDC"),
    };
  };

  async function statusEvents(requestId: string): Promise<string[]> {
    const { rows } = await stack.pool.query(
      "SELECT to_status FROM crossfill.status_events WHERE request_id = $1 ORDER BY id",
      [requestId],
    );
    return rows.map((row) => row.to_status);
  }

  it("bridges an ERC-20 with an approve step first, and skips it once the allowance is there", async () => {
    const { origin, destination, originClient, destinationClient, usdcIn, usdcOut } = chains();
    const user = stack.devnet.accounts[2];
    const recipient = stack.devnet.accounts[3].address;
    const body = {
      user: user.address,
      recipient,
      ...route(origin, destination, usdcIn, usdcOut),
      amount: "250000000",
      tradeType: "EXACT_INPUT",
    };
    const quote = await postQuote(stack.api.url, body);
    expect(quote.status).toBe(200);
    expect(quote.body.steps.map((step: { id: string }) => step.id)).toEqual(["approve", "deposit"]);
    expect(quote.body.steps[0].items[0].check).toBeUndefined();
    const requestId = quote.body.steps[1].requestId;

    const userBefore = await originClient.balanceOf(user.address, usdcIn);
    const recipientBefore = await destinationClient.balanceOf(recipient, usdcOut);
    const solverBefore = await destinationClient.balanceOf(stack.devnet.solver.address, usdcOut);
    const hashes = await sendSteps(quote.body, user, origin);
    const { last } = await pollStatus(stack.api.url, requestId);
    expect(last.status).toBe("success");
    expect(await statusEvents(requestId)).toEqual(["waiting", "pending", "submitted", "success"]);

    const out = BigInt(quote.body.details.currencyOut.amount);
    expect(out).toBe(250_000_000n - BigInt(quote.body.fees.relayer.amount));
    expect(await originClient.balanceOf(user.address, usdcIn)).toBe(userBefore - 250_000_000n);
    expect(await destinationClient.balanceOf(recipient, usdcOut)).toBe(recipientBefore + out);
    expect(await destinationClient.balanceOf(stack.devnet.solver.address, usdcOut)).toBe(solverBefore - out);
    const depositReceipt = await originClient.publicClient.getTransactionReceipt({ hash: hashes.deposit });
    expect(depositReceipt.gasUsed).toBeLessThanOrEqual(GAS_ESTIMATES.depositErc20);
    const fillReceipt = await destinationClient.publicClient.getTransactionReceipt({
      hash: (last.txHashes as Hex[])[0],
    });
    expect(fillReceipt.gasUsed).toBeLessThanOrEqual(GAS_ESTIMATES.fillErc20);

    // the approval was spent by the deposit; with a standing allowance the quote needs no approve step
    const wallet = devnetWalletClient({ rpcUrl: origin.rpcUrl, chainId: origin.id, privateKey: user.privateKey });
    const approval = await wallet.writeContract({
      address: usdcIn,
      abi: erc20Abi,
      functionName: "approve",
      args: [origin.depository as Address, 10n ** 12n],
    });
    await originClient.publicClient.waitForTransactionReceipt({ hash: approval, pollingInterval: 50 });
    const again = await postQuote(stack.api.url, { ...body, amount: "1000000" });
    expect(again.body.steps.map((step: { id: string }) => step.id)).toEqual(["deposit"]);
  });

  it("swaps ETH into an exact amount of USDC on the other chain", async () => {
    const { origin, destination, originClient, destinationClient, usdcOut } = chains();
    const user = stack.devnet.accounts[0];
    const recipient = stack.devnet.accounts[4].address;
    const quote = await postQuote(stack.api.url, {
      user: user.address,
      recipient,
      ...route(origin, destination, zeroAddress, usdcOut),
      amount: "100000000",
      tradeType: "EXACT_OUTPUT",
    });
    expect(quote.status).toBe(200);
    expect(quote.body.details.operation).toBe("swap");
    const amountIn = BigInt(quote.body.details.currencyIn.amount);
    // 100 USDC at 3000 USD/ETH is 1/30 ETH, plus the fill's gas and the service fee
    const fees = BigInt(quote.body.fees.relayer.amount);
    expect(amountIn - fees).toBe(10n ** 18n / 30n + 1n);
    expect(fees).toBeLessThan(10n ** 18n / 30n / 100n);

    const userBefore = await originClient.publicClient.getBalance({ address: user.address });
    const recipientBefore = await destinationClient.balanceOf(recipient, usdcOut);
    const hashes = await sendSteps(quote.body, user, origin);
    const requestId = quote.body.steps[0].requestId;
    expect((await pollStatus(stack.api.url, requestId)).last.status).toBe("success");
    expect(await destinationClient.balanceOf(recipient, usdcOut)).toBe(recipientBefore + 100_000_000n);
    const receipt = await originClient.publicClient.getTransactionReceipt({ hash: hashes.deposit });
    expect(receipt.gasUsed).toBeLessThanOrEqual(GAS_ESTIMATES.depositNative);
    expect(await originClient.publicClient.getBalance({ address: user.address })).toBe(
      userBefore - amountIn - receipt.gasUsed * receipt.effectiveGasPrice,
    );
  });

  it("executes destination calls in order with the bridged value and tokens", async () => {
    const { origin, destination, destinationClient, usdcIn, usdcOut } = chains();
    const user = stack.devnet.accounts[1];
    const beneficiary = stack.devnet.accounts[4].address;
    const target = destination.callTarget as Address;
    const read = (token: Address) =>
      destinationClient.publicClient.readContract({
        address: target,
        abi: callTargetAbi,
        functionName: "credited",
        args: [beneficiary, token],
      });

    const value = 2n * 10n ** 17n;
    const nativeCall = await postQuote(stack.api.url, {
      user: user.address,
      ...route(origin, destination),
      amount: value.toString(),
      tradeType: "EXACT_OUTPUT",
      txs: [
        {
          to: target,
          value: value.toString(),
          data: encodeFunctionData({
            abi: callTargetAbi,
            functionName: "deposit",
            args: [beneficiary, zeroAddress, value],
          }),
        },
      ],
    });
    expect(nativeCall.status).toBe(200);
    expect(nativeCall.body.details.operation).toBe("call");
    const nativeBefore = await read(zeroAddress);
    await sendSteps(nativeCall.body, user, origin);
    expect((await pollStatus(stack.api.url, nativeCall.body.steps[0].requestId)).last.status).toBe("success");
    expect(await read(zeroAddress)).toBe(nativeBefore + value);

    const amount = 42_000_000n;
    const tokenCall = await postQuote(stack.api.url, {
      user: user.address,
      ...route(origin, destination, usdcIn, usdcOut),
      amount: amount.toString(),
      tradeType: "EXACT_OUTPUT",
      txs: [
        {
          to: usdcOut,
          value: "0",
          data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [target, amount] }),
        },
        {
          to: target,
          value: "0",
          data: encodeFunctionData({
            abi: callTargetAbi,
            functionName: "deposit",
            args: [beneficiary, usdcOut, amount],
          }),
        },
      ],
    });
    expect(tokenCall.status).toBe(200);
    const tokenBefore = await read(usdcOut);
    await sendSteps(tokenCall.body, user, origin);
    expect((await pollStatus(stack.api.url, tokenCall.body.steps.at(-1).requestId)).last.status).toBe("success");
    expect(await read(usdcOut)).toBe(tokenBefore + amount);
    // nothing is left behind in the Receiver
    expect(await destinationClient.balanceOf(destination.receiver as Address, usdcOut)).toBe(0n);
  });

  it("indexes a deposit by hand from its receipt, idempotently, and 404s unknown transactions", async () => {
    const { origin, destination } = chains();
    const user = stack.devnet.accounts[3];
    const quote = await postBridgeQuote(stack.api.url, user, { origin, destination }, 10_000_000_000_000_000n);
    const { deposit } = await sendSteps(quote.body, user, origin);
    const facts = async () =>
      (await stack.pool.query("SELECT source, order_id FROM crossfill.deposit_facts WHERE tx_hash = $1", [deposit]))
        .rows;
    // The head watcher records the deposit from its block: indexing it by hand records nothing more.
    await vi.waitFor(async () =>
      expect(await facts()).toEqual([{ source: HEAD_WATCHER_SOURCE, order_id: quote.body.protocol.v2.orderId }]),
    );
    const index = (body: unknown) =>
      fetch(`${stack.api.url}/transactions/index`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const known = await index({ txHash: deposit, chainId: origin.id });
    expect(await known.json()).toMatchObject({ deposits: 1, recorded: 0 });
    // As if the watcher had missed the block (its socket down): the hand index records the deposit, once.
    await stack.pool.query("DELETE FROM crossfill.deposit_facts WHERE tx_hash = $1", [deposit]);
    const first = await index({ txHash: deposit, chainId: String(origin.id), referrer: "relay.link" });
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ deposits: 1, recorded: 1 });
    const second = await index({ txHash: deposit, chainId: origin.id });
    expect(await second.json()).toMatchObject({ deposits: 1, recorded: 0 });
    expect(await facts()).toEqual([{ source: "manual", order_id: quote.body.protocol.v2.orderId }]);
    expect((await pollStatus(stack.api.url, quote.body.steps[0].requestId)).last.status).toBe("success");

    const unknown = await index({ txHash: `0x${"ab".repeat(32)}`, chainId: origin.id });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ errorCode: "TRANSACTION_NOT_FOUND" });
    for (const bad of [
      { txHash: "0x12", chainId: origin.id },
      { txHash: deposit, chainId: 999_999 },
      { txHash: deposit, chainId: "abc" },
    ]) {
      const response = await index(bad);
      expect(response.status).toBe(400);
      expect(await response.json()).toHaveProperty("errorCode");
    }
  });
});
