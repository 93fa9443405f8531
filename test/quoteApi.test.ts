import {
  type Address,
  type Hex,
  decodeErrorResult,
  encodeFunctionData,
  recoverMessageAddress,
  zeroAddress,
} from "viem";
import { callTargetAbi, receiverAbi } from "../contracts/abis.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { computeOrderId, computeRequestId } from "../src/domain/order.js";
import { postQuote } from "./support/postQuote.js";
import { recordChainHead } from "../schema/chainHeads.js";
import { runChainsCommand } from "../apps/runChainsCommand.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";

describe("quote, chains and status over HTTP", () => {
  let stack: TestStack;
  let base: Record<string, unknown>;
  beforeAll(async () => {
    stack = await startTestStack({ pipeline: false, blockTime: 0 });
    const [origin, destination] = stack.devnet.chains;
    base = {
      user: stack.devnet.accounts[0].address,
      originChainId: origin.id,
      destinationChainId: destination.id,
      originCurrency: zeroAddress,
      destinationCurrency: zeroAddress,
      amount: "1000000000000000000",
      tradeType: "EXACT_INPUT",
    };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const requestCount = async () =>
    (await stack.pool.query("SELECT count(*)::int AS n FROM crossfill.requests")).rows[0].n;

  it("answers the spec's quote response with a recomputable order and a solver signature", async () => {
    const { status, body } = await postQuote(stack.api.url, { ...base, includeProtocolData: true, referrer: "my.app" });
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(["details", "feeSponsorship", "fees", "protocol", "requestId", "steps"]);
    expect(Object.keys(body.fees).sort()).toEqual([
      "app",
      "gas",
      "relayer",
      "relayerGas",
      "relayerService",
      "subsidized",
    ]);
    for (const fee of Object.values(body.fees) as Array<Record<string, unknown>>) {
      expect(Object.keys(fee).sort()).toEqual(["amount", "amountFormatted", "amountUsd", "currency", "minimumAmount"]);
      expect(fee.amount).toMatch(/^\d+$/);
    }
    expect(BigInt(body.fees.relayer.amount)).toBe(
      BigInt(body.fees.relayerGas.amount) + BigInt(body.fees.relayerService.amount),
    );
    for (const field of [
      "operation",
      "sender",
      "recipient",
      "currencyIn",
      "currencyOut",
      "refundCurrency",
      "currencyGasTopup",
      "totalImpact",
      "swapImpact",
      "expandedPriceImpact",
      "rate",
      "slippageTolerance",
      "timeEstimate",
      "userBalance",
      "fallbackType",
      "isFixedRate",
      "fixedRateFee",
      "route",
    ]) {
      expect(body.details).toHaveProperty(field);
    }
    expect(body.details.currencyIn.currency).toMatchObject({
      chainId: base.originChainId,
      address: zeroAddress,
      symbol: "ETH",
      decimals: 18,
    });
    expect(body.details.operation).toBe("bridge");
    expect(body.details.currencyIn.amountUsd).toBe("3000");

    const { v2 } = body.protocol;
    expect(v2.hubType).toBe("onchain");
    expect(computeOrderId(v2.orderData)).toBe(v2.orderId);
    expect(computeRequestId(v2.orderId)).toBe(body.requestId);
    expect(body.steps[0].requestId).toBe(body.requestId);
    expect(body.requestId).not.toBe(v2.orderId);
    expect(await recoverMessageAddress({ message: { raw: v2.orderId as Hex }, signature: v2.orderSignature })).toBe(
      stack.devnet.solver.address,
    );
    expect(v2.paymentDetails).toEqual({
      chainId: String(base.originChainId),
      depository: stack.devnet.chains[0].depository,
      currency: zeroAddress,
      amount: "1000000000000000000",
    });
    expect(body.steps[0].items[0].data).toMatchObject({
      to: stack.devnet.chains[0].depository,
      value: "1000000000000000000",
      chainId: base.originChainId,
      // The deposit simulated from the user's account, and the chain's fee estimate (the spec's optional fields).
      gas: expect.stringMatching(/^[1-9]\d{4,}$/),
      maxFeePerGas: expect.stringMatching(/^[1-9]\d*$/),
      maxPriorityFeePerGas: expect.stringMatching(/^\d+$/),
    });
    expect(body.steps[0].items[0].check).toEqual({
      endpoint: `/intents/status/v3?requestId=${body.requestId}`,
      method: "GET",
    });

    const withoutSignature = await postQuote(stack.api.url, { ...base, protocolVersion: "v2" });
    expect(withoutSignature.body.protocol.v2.orderSignature).toBeUndefined();
    // the old name of includeProtocolData (renamed 2026-07-02) still asks for the signature
    const oldName = await postQuote(stack.api.url, { ...base, includeProtocolSignature: true });
    expect(
      await recoverMessageAddress({
        message: { raw: oldName.body.protocol.v2.orderId as Hex },
        signature: oldName.body.protocol.v2.orderSignature,
      }),
    ).toBe(stack.devnet.solver.address);
    const legacy = await fetch(`${stack.api.url}/quote`, {
      method: "POST",
      body: JSON.stringify(base),
      headers: { "content-type": "application/json" },
    });
    expect(legacy.status).toBe(200);
  });

  it("fills the impacts from the quote: a bridge's fixed-rate fee, a swap's impact beyond its fees", async () => {
    const usd = (value: string) => Number(value);
    const feesUsd = (body: any) =>
      usd(body.fees.relayerGas.amountUsd) + usd(body.fees.relayerService.amountUsd) + usd(body.fees.app.amountUsd);
    const bridge = (await postQuote(stack.api.url, base)).body;
    expect(bridge.details.isFixedRate).toBe(true);
    expect(usd(bridge.details.fixedRateFee.usd)).toBeGreaterThan(0);
    expect(usd(bridge.details.fixedRateFee.usd)).toBeCloseTo(feesUsd(bridge), 5);

    const usdc = stack.devnet.chains[1].currencies.find((currency) => currency.symbol === "USDC")!;
    const swap = (await postQuote(stack.api.url, { ...base, destinationCurrency: usdc.address })).body;
    expect(swap.details.isFixedRate).toBe(false);
    expect(swap.details.fixedRateFee.usd).toBe("0");
    // Oracle prices on both sides and no swap fee: what the fees do not explain is the conversion's rounding.
    const swapImpact = usd(swap.details.swapImpact.usd);
    expect(swap.details.expandedPriceImpact.swap.usd).toBe(swap.details.swapImpact.usd);
    expect(usd(swap.details.totalImpact.usd)).toBeCloseTo(swapImpact - feesUsd(swap), 5);
    expect(Math.abs(swapImpact)).toBeLessThan(0.01);
  });

  it("answers waiting for a quoted request and 404 for an unknown one", async () => {
    const { body } = await postQuote(stack.api.url, base);
    const waiting = await fetch(`${stack.api.url}/intents/status/v3?requestId=${body.requestId}`);
    expect(waiting.status).toBe(200);
    const record = await waiting.json();
    expect(record).toMatchObject({
      status: "waiting",
      inTxHashes: [],
      txHashes: [],
      originChainId: base.originChainId,
      destinationChainId: base.destinationChainId,
      failReason: "N/A",
      refundFailReason: "N/A",
      details: null,
    });
    expect(typeof record.updatedAt).toBe("number");

    const unknown = await fetch(`${stack.api.url}/intents/status/v3?requestId=0x${"12".repeat(32)}`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ errorCode: "REQUEST_NOT_FOUND", message: expect.any(String) });
    for (const query of ["", "?requestId=", "?requestId=abc"]) {
      const bad = await fetch(`${stack.api.url}/intents/status/v3${query}`);
      expect(bad.status).toBe(400);
    }
  });

  it("lists every configured chain with the spec's chain record", async () => {
    const response = await fetch(`${stack.api.url}/chains`);
    const { chains } = await response.json();
    expect(chains.map((chain: { id: number }) => chain.id)).toEqual(stack.devnet.chains.map((chain) => chain.id));
    for (const field of [
      "id",
      "name",
      "displayName",
      "httpRpcUrl",
      "wsRpcUrl",
      "explorerUrl",
      "explorerName",
      "explorerPaths",
      "depositEnabled",
      "tokenSupport",
      "disabled",
      "partialDisableLimit",
      "blockProductionLagging",
      "currency",
      "withdrawalFee",
      "depositFee",
      "surgeEnabled",
      "featuredTokens",
      "erc20Currencies",
      "solverCurrencies",
      "iconUrl",
      "contracts",
      "vmType",
      "baseChainId",
      "solverAddresses",
      "tags",
      "protocol",
    ]) {
      expect(chains[0]).toHaveProperty(field);
    }
    expect(chains[0].protocol.v2).toEqual({
      chainId: stack.devnet.chains[0].name,
      depository: stack.devnet.chains[0].depository,
    });
    expect(chains[0].erc20Currencies.map((c: { symbol: string }) => c.symbol)).toEqual(["USDC", "WETH"]);
  });

  it("refuses bad input with 400 and the spec's codes, writing nothing", async () => {
    const before = await requestCount();
    const usdc = stack.devnet.chains[1].currencies[0].address as Address;
    const cases: Array<[unknown, string]> = [
      ["{not json", "INVALID_INPUT"],
      ["[]", "INVALID_INPUT"],
      [{ ...base, amount: 5 }, "INVALID_INPUT"],
      [{ ...base, amount: "-1" }, "INVALID_INPUT"],
      [{ ...base, amount: "1.5" }, "INVALID_INPUT"],
      [{ ...base, amount: "9".repeat(100) }, "INVALID_INPUT"],
      [{ ...base, amount: "0" }, "INVALID_INPUT"],
      [{ ...base, amount: "1000" }, "AMOUNT_DOES_NOT_COVER_FEES"],
      [{ ...base, amount: "1000", txs: [{ to: base.user, value: "0", data: "0x" }] }, "AMOUNT_DOES_NOT_COVER_FEES"],
      [{ ...base, txs: [{ to: base.user, value: (2n * 10n ** 18n).toString(), data: "0x" }] }, "INVALID_INPUT"],
      [{ ...base, tradeType: "EXACT" }, "INVALID_INPUT"],
      [{ ...base, originChainId: 999_999 }, "UNSUPPORTED_CHAIN"],
      [{ ...base, destinationChainId: "abc" }, "INVALID_INPUT"],
      [{ ...base, destinationChainId: base.originChainId, amount: "1000" }, "AMOUNT_DOES_NOT_COVER_FEES"],
      [{ ...base, originCurrency: "0x000000000000000000000000000000000000dead" }, "UNSUPPORTED_CURRENCY"],
      [{ ...base, destinationCurrency: "not-an-address" }, "UNSUPPORTED_CURRENCY"],
      [{ ...base, user: "0x123" }, "INVALID_ADDRESS"],
      [{ ...base, recipient: "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh" }, "INVALID_ADDRESS"],
      [{ ...base, recipient: usdc }, "INVALID_RECIPIENT"],
      [{ ...base, slippageTolerance: "abc" }, "INVALID_SLIPPAGE_TOLERANCE"],
      [{ ...base, slippageTolerance: "10001" }, "INVALID_SLIPPAGE_TOLERANCE"],
      [{ ...base, slippageTolerance: "1.5" }, "INVALID_SLIPPAGE_TOLERANCE"],
      [{ ...base, slippageTolerance: 50 }, "INVALID_SLIPPAGE_TOLERANCE"],
      [{ ...base, latePaymentSlippageTolerance: "-5" }, "INVALID_SLIPPAGE_TOLERANCE"],
      [{ ...base, subsidizeFees: true, subsidizationBps: 5000 }, "INVALID_INPUT"],
      [{ ...base, appFees: [{ recipient: base.user, fee: "0" }] }, "INVALID_INPUT"],
      [{ ...base, appFees: [{ recipient: base.user, fee: "10001" }] }, "INVALID_INPUT"],
      [{ ...base, appFees: [{ recipient: "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh", fee: "5" }] }, "INVALID_INPUT"],
      [{ ...base, appFees: [{ recipient: base.user, fee: "10000" }] }, "AMOUNT_DOES_NOT_COVER_FEES"],
      [{ ...base, appFees: "50" }, "INVALID_INPUT"],
      [{ ...base, amount: (10n ** 30n).toString() }, "INSUFFICIENT_LIQUIDITY"],
      [{ ...base, txs: [{ to: "0x1", value: "0", data: "0x" }] }, "INVALID_INPUT"],
      [{ ...base, destinationCurrency: usdc, txs: [{ to: usdc, value: "5", data: "0x" }] }, "INVALID_INPUT"],
      [{ ...base, tradeType: "EXACT_OUTPUT", txs: [{ to: usdc, value: "5", data: "0x" }] }, "INVALID_INPUT"],
      [{ ...base, protocolVersion: "v1" }, "INVALID_INPUT"],
      [{ ...base, includeProtocolSignature: true, includeProtocolData: false }, "INVALID_INPUT"],
    ];
    for (const [body, errorCode] of cases) {
      const response = await postQuote(stack.api.url, body);
      expect({ body, status: response.status, errorCode: response.body.errorCode }).toEqual({
        body,
        status: 400,
        errorCode,
      });
      expect(typeof response.body.message).toBe("string");
    }
    // A misspelled recipient must not send the funds to the sender (issue 29, defect 3).
    const misspelled = await postQuote(stack.api.url, { ...base, recipent: usdc });
    expect(misspelled).toMatchObject({ status: 400, body: { errorCode: "INVALID_INPUT" } });
    expect(misspelled.body.message).toContain("did you mean recipient?");
    const huge = await postQuote(stack.api.url, { ...base, referrer: "x".repeat(300_000) });
    expect(huge).toMatchObject({ status: 413, body: { errorCode: "INVALID_INPUT" } });
    expect(await requestCount()).toBe(before);
  });

  it("accepts the official client's fields it does not act on", async () => {
    const response = await postQuote(stack.api.url, { ...base, topupGas: false, useExternalLiquidity: false, ttl: 60 });
    expect(response.status).toBe(200);
  });

  it("accepts valid slippage and an exact output", async () => {
    const swap = await postQuote(stack.api.url, {
      ...base,
      destinationCurrency: stack.devnet.chains[1].currencies[0].address,
      slippageTolerance: "100",
      tradeType: "EXACT_OUTPUT",
      amount: "5000000",
    });
    expect(swap.status).toBe(200);
    expect(swap.body.details.currencyOut.amount).toBe("5000000");
    expect(swap.body.details.currencyOut.minimumAmount).toBe("5000000");
    const exactIn = await postQuote(stack.api.url, {
      ...base,
      destinationCurrency: stack.devnet.chains[1].currencies[0].address,
      slippageTolerance: "100",
    });
    const out = BigInt(exactIn.body.details.currencyOut.amount);
    expect(BigInt(exactIn.body.details.currencyOut.minimumAmount)).toBe(out - out / 100n);
  });

  it("refuses a quote whose destination call reverts, with what the simulation saw and writing nothing", async () => {
    const before = await requestCount();
    const destination = stack.devnet.chains[1];
    const data = encodeFunctionData({ abi: callTargetAbi, functionName: "alwaysReverts" });
    const head = Number(
      (
        await (
          await fetch(destination.rpcUrl, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
          })
        ).json()
      ).result,
    );
    const { status, body } = await postQuote(stack.api.url, {
      ...base,
      txs: [{ to: destination.callTarget, value: "0", data }],
    });
    expect(status).toBe(400);
    expect(body).toMatchObject({
      errorCode: "DESTINATION_TX_FAILED",
      message: "destination call 0 reverts: CallTarget: always reverts",
      requestId: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      failedCallData: {
        from: stack.devnet.solver.address,
        to: destination.receiver,
        data: expect.stringMatching(/^0x/),
        value: expect.stringMatching(/^\d+$/),
      },
    });
    expect(body.approxSimulatedBlock).toBeGreaterThanOrEqual(head);
    expect(decodeErrorResult({ abi: receiverAbi, data: body.errorData })).toMatchObject({
      errorName: "CallFailed",
      args: [0n, expect.any(String)],
    });
    expect(await requestCount()).toBe(before);
  });

  it("quotes a destination call that succeeds in simulation", async () => {
    const { status } = await postQuote(stack.api.url, {
      ...base,
      txs: [{ to: stack.devnet.accounts[1].address, value: "1", data: "0x" }],
    });
    expect(status).toBe(200);
  });

  it("follows the operator's chain switches and the indexer's heads in GET /chains and in quotes", async () => {
    const origin = stack.devnet.chains[0];
    const chainsCommand = (...argv: string[]) => runChainsCommand(stack.pool, argv, () => {});
    const chainRecord = async () => {
      const { chains } = (await (await fetch(`${stack.api.url}/chains`)).json()) as { chains: any[] };
      return chains.find((chain) => chain.id === origin.id);
    };
    // Every replica reads the switches at most a second late: poll until this one has.
    const eventually = async <T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> => {
      for (let i = 0; ; i++) {
        const value = await read();
        if (done(value) || i === 50) return value;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    expect(await chainsCommand("disable", String(origin.id), "--reason", "RPC incident")).toBe(0);
    const disabled = await eventually(
      () => postQuote(stack.api.url, base),
      (r) => r.status !== 200,
    );
    expect(disabled).toMatchObject({ status: 400, body: { errorCode: "CHAIN_DISABLED" } });
    expect(disabled.body.message).toMatch(/disabled.*RPC incident/);
    expect(await chainRecord()).toMatchObject({ disabled: true, depositEnabled: false });
    const before = await requestCount();
    expect((await postQuote(stack.api.url, base)).status).toBe(400);
    expect(await requestCount()).toBe(before);

    expect(await chainsCommand("enable", String(origin.id))).toBe(0);
    expect(
      (
        await eventually(
          () => postQuote(stack.api.url, base),
          (r) => r.status === 200,
        )
      ).status,
    ).toBe(200);
    expect(await chainRecord()).toMatchObject({ disabled: false, depositEnabled: true, partialDisableLimit: 0 });

    // 1 ETH is 3,000 USD on the devnet's prices.
    expect(await chainsCommand("limit", String(origin.id), "2500")).toBe(0);
    const limited = await eventually(
      () => postQuote(stack.api.url, base),
      (r) => r.status !== 200,
    );
    expect(limited).toMatchObject({ status: 400, body: { errorCode: "AMOUNT_TOO_HIGH" } });
    expect(await chainRecord()).toMatchObject({ partialDisableLimit: 2500 });
    expect((await postQuote(stack.api.url, { ...base, amount: "500000000000000000" })).status).toBe(200);
    expect(await chainsCommand("limit", String(origin.id), "none")).toBe(0);
    expect(await chainsCommand("limit", String(origin.id), "-5")).toBe(2);

    // This stack runs no indexer: no head seen is lagging; a head that moves is not; one that stood still is.
    expect((await chainRecord()).blockProductionLagging).toBe(true);
    await recordChainHead(stack.pool, origin.id, 10n);
    expect((await eventually(chainRecord, (c) => !c.blockProductionLagging)).blockProductionLagging).toBe(false);
    await recordChainHead(stack.pool, origin.id, 10n);
    await stack.pool.query(
      "UPDATE crossfill.chain_heads SET moved_at = now() - interval '1 minute' WHERE chain_id = $1",
      [origin.id],
    );
    expect((await eventually(chainRecord, (c) => c.blockProductionLagging)).blockProductionLagging).toBe(true);
    await recordChainHead(stack.pool, origin.id, 11n);
    expect((await eventually(chainRecord, (c) => !c.blockProductionLagging)).blockProductionLagging).toBe(false);
  });
});
