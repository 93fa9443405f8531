import { randomBytes } from "node:crypto";
import { type Address, type Hex, erc20Abi, parseEventLogs, zeroAddress } from "viem";
import { wrappedNativeAbi } from "../contracts/abis.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApiKey } from "../src/apiKeys/createApiKey.js";
import { callExecutorAddress } from "../src/chains/evm/callExecutorAddress.js";
import { createEvmChainClient } from "../src/chains/evm/evmChainClient.js";
import { blockTokenRecipient } from "./support/blockTokenRecipient.js";
import { openStatusFeed } from "./support/openStatusFeed.js";
import { pollStatus } from "./support/pollStatus.js";
import { postGraphql } from "./support/postGraphql.js";
import { quoteWithKey } from "./support/quoteWithKey.js";
import { refundChecks } from "./support/refundChecks.js";
import { postQuote } from "./support/postQuote.js";
import { sendSteps } from "./support/sendSteps.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";
import { startWebhookReceiver } from "./support/startWebhookReceiver.js";

describe("one chain, end to end: send, wrap, unwrap, same-chain swap, pushed like any request", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const setup = () => {
    const [chain] = stack.devnet.chains;
    const token = (symbol: string) => chain.currencies.find((c) => c.symbol === symbol)!.address as Address;
    return { chain, client: createEvmChainClient(chain), usdc: token("USDC"), weth: token("WETH") };
  };
  const checks = () => refundChecks(stack);
  const listedAs = async (requestId: string, operation: string) => {
    const key = await createApiKey(stack.pool, stack.serverKey, {
      name: `k-${operation}-${requestId.slice(2, 10)}`,
      integrator: `k-${operation}`,
    });
    const listed = await fetch(`${stack.api.url}/requests/v3?id=${requestId}`, {
      headers: { "x-api-key": key.key },
    }).then((response) => response.json() as Promise<any>);
    return listed.requests[0];
  };
  const body = (originCurrency: string, destinationCurrency: string, amount: string) => {
    const { chain } = setup();
    return {
      user: stack.devnet.accounts[1].address,
      recipient: stack.devnet.accounts[4].address,
      originChainId: chain.id,
      destinationChainId: chain.id,
      originCurrency,
      destinationCurrency,
      amount,
      tradeType: "EXACT_INPUT",
    };
  };

  it.each([
    ["Send", "usdc", "usdc", "5000000", "send"],
    ["Same-chain Swap", "usdc", "weth", "30000000", "swap"],
  ] as const)(
    "quotes and fills a %s, listed with its request type",
    async (requestType, from, to, amount, operation) => {
      const { chain, client, usdc, weth } = setup();
      const currencies = { usdc, weth, eth: zeroAddress };
      const quote = await postQuote(stack.api.url, body(currencies[from], currencies[to], amount));
      expect(quote.status).toBe(200);
      expect(quote.body.details.operation).toBe(operation);
      const recipient = stack.devnet.accounts[4].address;
      const before = await client.balanceOf(recipient, currencies[to]);
      await sendSteps(quote.body, stack.devnet.accounts[1], chain);
      const { statuses } = await pollStatus(stack.api.url, quote.body.requestId);
      expect(statuses.at(-1)).toBe("success");
      expect(await client.balanceOf(recipient, currencies[to])).toBe(
        before + BigInt(quote.body.details.currencyOut.amount),
      );
      const record = await listedAs(quote.body.requestId, operation);
      expect(record).toMatchObject({ requestType, status: "success" });
      // One chain, one side: no destination, the origin's output is what the recipient received.
      expect(record.data.route.quoted.destination).toBeUndefined();
      expect(record.data.route.actual.destination).toBeUndefined();
      expect(record.data.route.actual.origin.inputCurrency).toMatchObject({
        amount: amount,
        currency: { address: currencies[from] },
      });
      expect(record.data.route.actual.origin.outputCurrency).toMatchObject({
        amount: quote.body.details.currencyOut.amount,
        currency: { address: currencies[to] },
      });
      const graphql = await postGraphql(
        stack.api.url,
        `query ($id: String!) { request(id: $id) { route { actual {
          origin { outputCurrency { amount } } destination { outputCurrency { amount } } } } } }`,
        { id: quote.body.requestId },
      );
      expect(graphql.data.request.route.actual).toEqual({
        origin: { outputCurrency: { amount: quote.body.details.currencyOut.amount } },
        destination: null,
      });
    },
  );

  it("marks WETH as each chain's wrapped native in /chains", async () => {
    const { chains } = (await fetch(`${stack.api.url}/chains`).then((response) => response.json())) as any;
    for (const chain of stack.devnet.chains) {
      const weth = chain.currencies.find((c) => c.symbol === "WETH")!;
      expect(weth.wrapsNative).toBe(true);
      expect(chains.find((c: any) => c.id === chain.id).wrappedNativeCurrency).toMatchObject({
        symbol: "WETH",
        address: weth.address,
        decimals: 18,
      });
    }
  });

  it.each([
    ["Wrap", "eth", "weth", "wrap"],
    ["Unwrap", "weth", "eth", "unwrap"],
  ] as const)(
    "fills a %s through the WETH contract: its supply moves by the amount, balances to the wei",
    async (requestType, from, to, operation) => {
      const { chain, client, weth } = setup();
      const currencies = { weth, eth: zeroAddress as Address };
      const currencyIn = currencies[from];
      const currencyOut = currencies[to];
      const user = stack.devnet.accounts[1].address;
      const solver = stack.devnet.solver.address;
      const depository = chain.depository as Address;
      const recipient = `0x${randomBytes(20).toString("hex")}` as Address;
      const quote = await postQuote(stack.api.url, {
        ...body(currencyIn, currencyOut, "10000000000000000"),
        recipient,
      });
      expect(quote.status).toBe(200);
      expect(quote.body.details.operation).toBe(operation);
      const amountIn = BigInt(quote.body.details.currencyIn.amount);
      const amountOut = BigInt(quote.body.details.currencyOut.amount);
      expect(amountOut).toBeGreaterThan(0n);

      const eth = (account: Address) => client.publicClient.getBalance({ address: account });
      const wethOf = (account: Address) => client.balanceOf(account, weth);
      const supply = () =>
        client.publicClient.readContract({ address: weth, abi: erc20Abi, functionName: "totalSupply" });
      const before = {
        userEth: await eth(user),
        userWeth: await wethOf(user),
        solverEth: await eth(solver),
        solverWeth: await wethOf(solver),
        depositoryEth: await eth(depository),
        depositoryWeth: await wethOf(depository),
        wethEther: await eth(weth),
        supply: await supply(),
      };
      const hashes = await sendSteps(quote.body, stack.devnet.accounts[1], chain);
      const { last } = await pollStatus(stack.api.url, quote.body.requestId);
      expect(last.status).toBe("success");
      expect(await checks().events(quote.body.requestId)).toEqual(["waiting", "pending", "submitted", "success"]);

      let userGas = 0n;
      for (const hash of Object.values(hashes)) userGas += await checks().gasPaid(client, hash);
      const [fillTx] = last.txHashes as Hex[];
      const fillGas = await checks().gasPaid(client, fillTx);
      const wrap = requestType === "Wrap";
      // The wrap mints amountOut new WETH from the solver's ether; the unwrap burns the solver's WETH for ether.
      expect(await supply()).toBe(wrap ? before.supply + amountOut : before.supply - amountOut);
      expect(await eth(weth)).toBe(wrap ? before.wethEther + amountOut : before.wethEther - amountOut);
      expect(await client.balanceOf(recipient, currencyOut)).toBe(amountOut);
      expect(await eth(user)).toBe(before.userEth - userGas - (wrap ? amountIn : 0n));
      expect(await wethOf(user)).toBe(before.userWeth - (wrap ? 0n : amountIn));
      // The deposit stays in the Depository, as every request's does; the solver pays the conversion.
      expect(await eth(depository)).toBe(before.depositoryEth + (wrap ? amountIn : 0n));
      expect(await wethOf(depository)).toBe(before.depositoryWeth + (wrap ? 0n : amountIn));
      expect(await eth(solver)).toBe(before.solverEth - fillGas - (wrap ? amountOut : 0n));
      expect(await wethOf(solver)).toBe(before.solverWeth - (wrap ? 0n : amountOut));

      const receipt = await client.publicClient.getTransactionReceipt({ hash: fillTx });
      const converted = parseEventLogs({ abi: wrappedNativeAbi, logs: receipt.logs }).filter(
        (log) => log.eventName === (wrap ? "Deposit" : "Withdrawal"),
      );
      // The conversion runs in the Receiver's CallExecutor, never in the Receiver that holds the solver's approval.
      const executor = callExecutorAddress(chain.receiver);
      expect(converted.map((log) => log.args)).toEqual([
        wrap ? { dst: executor, wad: amountOut } : { src: executor, wad: amountOut },
      ]);
      expect(await eth(executor)).toBe(0n);
      expect(await wethOf(executor)).toBe(0n);
      expect(await listedAs(quote.body.requestId, operation)).toMatchObject({ requestType, status: "success" });
    },
  );

  it("posts a same-chain Send's every status to the key's signed webhook and pushes it on /ws", async () => {
    const { chain, usdc } = setup();
    const key = await createApiKey(stack.pool, stack.serverKey, { name: "same-chain-push", integrator: "push" });
    const hooks = await startWebhookReceiver(key.key);
    const received = () => hooks.received.map(({ body, valid }) => ({ ...body.data, valid }));
    try {
      const url = hooks.url;
      const set = await postGraphql(
        stack.api.url,
        `mutation ($url: String!) { setWebhook(url: $url) { enabled } }`,
        { url },
        key.key,
      );
      expect(set).toEqual({ data: { setWebhook: { enabled: true } } });
      const user = stack.devnet.accounts[1];
      const quote = await quoteWithKey(stack.api.url, key.key, {
        user,
        recipient: stack.devnet.accounts[4],
        origin: chain,
        destination: chain,
        extra: { originCurrency: usdc, destinationCurrency: usdc, amount: "7000000" },
      });
      const viaFeed: string[] = [];
      const feed = await openStatusFeed(stack.api.url, { id: quote.requestId }, (data) => {
        expect(data).toMatchObject({
          requestId: quote.requestId,
          originChainId: chain.id,
          destinationChainId: chain.id,
        });
        viaFeed.push(data.status);
      });
      try {
        await sendSteps(quote, user, chain);
        expect((await pollStatus(stack.api.url, quote.requestId)).last.status).toBe("success");
        const recorded = await checks().events(quote.requestId);
        expect(recorded).toEqual(["waiting", "pending", "submitted", "success"]);
        await vi.waitFor(
          () => {
            expect(received().map((r) => r.status)).toEqual(recorded);
            // 'waiting' was recorded with the quote, before the feed subscribed: it arrives or not, by timing.
            expect(viaFeed).toEqual(recorded.slice(recorded.length - viaFeed.length));
            expect(viaFeed.filter((status) => status !== "waiting")).toEqual(recorded.slice(1));
          },
          { timeout: 30_000, interval: 50 },
        );
        expect(received().every((r) => r.valid && r.requestId === quote.requestId)).toBe(true);
      } finally {
        feed.close();
      }
    } finally {
      hooks.close();
    }
  });

  it("ends a same-chain swap whose fill reverts with TRANSACTION_REVERTED and refunds it", async () => {
    const { chain, usdc } = setup();
    const recipient = `0x${randomBytes(20).toString("hex")}` as Address;
    await blockTokenRecipient(chain, usdc, recipient, stack.devnet.solver.privateKey);
    const quote = await postQuote(stack.api.url, { ...body(zeroAddress, usdc, "10000000000000000"), recipient });
    expect(quote.body.details.operation).toBe("swap");
    await sendSteps(quote.body, stack.devnet.accounts[1], chain);
    const { last } = await pollStatus(stack.api.url, quote.body.requestId, { until: ["refund", "success"] });
    expect(last).toMatchObject({ status: "refund", failReason: "TRANSACTION_REVERTED" });
  });

  it("refuses a same-chain swap under 0.05 USD with AMOUNT_TOO_LOW, and quotes a tiny wrap", async () => {
    const { usdc, weth } = setup();
    expect(await postQuote(stack.api.url, body(usdc, weth, "40000"))).toMatchObject({
      status: 400,
      body: { errorCode: "AMOUNT_TOO_LOW" },
    });
    const tinyWrap = await postQuote(stack.api.url, body(zeroAddress, weth, "200000000000000"));
    expect(tinyWrap.status).toBe(200);
  });
});
