import { randomBytes } from "node:crypto";
import { type Address, type Hex, encodeFunctionData, getAddress, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { callTargetAbi } from "../contracts/abis.js";
import { type CreatedApiKey, createApiKey } from "../src/apiKeys/createApiKey.js";
import { createEvmChainClient } from "../src/chains/evm/evmChainClient.js";
import { blockTokenRecipient } from "./support/blockTokenRecipient.js";
import { pollStatus } from "./support/pollStatus.js";
import { postGraphql } from "./support/postGraphql.js";
import { openapiRecordIssues } from "./support/openapiRecordIssues.js";
import { postQuote } from "./support/postQuote.js";
import { refundChecks } from "./support/refundChecks.js";
import { sendSteps } from "./support/sendSteps.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";
import { type WebhookReceiver, startWebhookReceiver } from "./support/startWebhookReceiver.js";

/** v2 answers 410 after its sunset (2026-11-24): the API's clock runs this far behind, so v2 is read beside v3. */
const BEFORE_SUNSET_MS = Date.now() - Date.parse("2026-08-01T00:00:00Z");

type DevnetChain = TestStack["devnet"]["chains"][number];
type Kind = {
  kind: string;
  requestType: string;
  operation: string;
  /** Which devnet chains (0 or 1) the request leaves from and arrives on. */
  chains: [number, number];
  currencies: [string, string];
  amount: string;
  tradeType?: "EXACT_INPUT" | "EXACT_OUTPUT";
  ends: "success" | "refund";
  failReason?: string;
  /** The record's features: what the quote asked for (app fees), nothing else happens in Crossfill. */
  features?: string[];
  /** The request's extra quote fields (calls, app fees, referrer). */
  extra?: (ctx: { destination: DevnetChain; recipient: Address; user: Address }) => Record<string, unknown>;
  /** What the request does before its deposit (a recipient the output token refuses). */
  before?: (ctx: { destination: DevnetChain; recipient: Address; token: Address; solverKey: Hex }) => Promise<void>;
};

const beneficiaryCall = (target: string, beneficiary: Address, value: bigint) => ({
  to: target,
  value: value.toString(),
  data: encodeFunctionData({ abi: callTargetAbi, functionName: "deposit", args: [beneficiary, zeroAddress, value] }),
});
const CALL_VALUE = 20_000_000_000_000_000n;

/** A kind of request: its name, requestType, quote operation, chains, currencies and amount, then anything else. */
const kind = (
  name: string,
  [requestType, operation]: [string, string],
  chains: [number, number],
  currencies: [string, string],
  amount: string,
  more: Partial<Kind> = {},
): Kind => ({ kind: name, requestType, operation, chains, currencies, amount, ends: "success", ...more });

/** One request of every kind the spec names (and the two ways one ends badly), each quoted with the walk's key. */
const KINDS: Kind[] = [
  kind("bridge", ["Bridge", "bridge"], [0, 1], ["ETH", "ETH"], "10000000000000000", {
    features: ["app_fees"],
    extra: ({ user }) => ({ appFees: [{ recipient: user, fee: "50" }] }),
  }),
  kind("cross-chain swap", ["Crosschain Swap", "swap"], [0, 1], ["USDC", "ETH"], "30000000"),
  kind("same-chain swap", ["Same-chain Swap", "swap"], [0, 0], ["USDC", "WETH"], "30000000"),
  kind("wrap", ["Wrap", "wrap"], [0, 0], ["ETH", "WETH"], "10000000000000000"),
  kind("send", ["Send", "send"], [0, 0], ["USDC", "USDC"], "5000000"),
  kind("call", ["Call", "call"], [0, 1], ["ETH", "ETH"], CALL_VALUE.toString(), {
    tradeType: "EXACT_OUTPUT",
    extra: ({ destination, recipient }) => ({ txs: [beneficiaryCall(destination.callTarget, recipient, CALL_VALUE)] }),
  }),
  // The solver refuses it (the devnet's debug referrer): refunded without a fill attempt.
  kind("refund", ["Bridge", "bridge"], [0, 1], ["USDC", "USDC"], "12000000", {
    ends: "refund",
    failReason: "MANUAL_ADMIN_REFUND",
    extra: () => ({ referrer: "debug-force-refund" }),
  }),
  // The output token refuses the recipient: the fill fails, then the deposit is refunded.
  kind("failure", ["Bridge", "bridge"], [0, 1], ["USDC", "USDC"], "13000000", {
    ends: "refund",
    failReason: "DESTINATION_TOKEN_TRANSFER_REJECTED",
    before: ({ destination, recipient, token, solverKey }) =>
      blockTokenRecipient(destination, token, recipient, solverKey),
  }),
];

/**
 * The issue's held-in walk-through: one request of each kind, quoted, paid on the devnet and followed on every
 * surface — quote, status, GET /requests/v3 and v2, the signed webhook, GraphQL — with every field the spec
 * defines compared with what happened on the chains (amounts moved, transactions, blocks, fees paid, times,
 * reasons), never with a constant.
 */
describe("every request kind walked through quote, status, v3 and v2 records, webhook and GraphQL", () => {
  let stack: TestStack;
  let key: CreatedApiKey;
  let hooks: WebhookReceiver;
  const started = Date.now();

  beforeAll(async () => {
    stack = await startTestStack({ apiNow: () => new Date(Date.now() - BEFORE_SUNSET_MS) });
    key = await createApiKey(stack.pool, stack.serverKey, { name: "walk", integrator: "walk" });
    hooks = await startWebhookReceiver(key.key);
    const set = await postGraphql(
      stack.api.url,
      `mutation ($url: String!) { setWebhook(url: $url) { enabled } }`,
      { url: hooks.url },
      key.key,
    );
    expect(set).toEqual({ data: { setWebhook: { enabled: true } } });
  });
  afterAll(async () => {
    hooks?.close();
    await stack?.stop();
  });

  const getJson = (path: string) =>
    fetch(`${stack.api.url}${path}`, { headers: { "x-api-key": key.key } }).then(
      (response) => response.json() as Promise<any>,
    );

  it.each(KINDS.map((kind, index) => [kind.kind, kind, index] as const))("%s", async (_name, kind, index) => {
    const checks = refundChecks(stack);
    const origin = stack.devnet.chains[kind.chains[0]];
    const destination = stack.devnet.chains[kind.chains[1]];
    const currencyOn = (chain: DevnetChain, symbol: string) =>
      symbol === "ETH" ? zeroAddress : (chain.currencies.find((c) => c.symbol === symbol)!.address as Address);
    const currencyIn = currencyOn(origin, kind.currencies[0]);
    const currencyOut = currencyOn(destination, kind.currencies[1]);
    const originClient = createEvmChainClient(origin);
    const destinationClient = createEvmChainClient(destination);
    const user = stack.devnet.accounts[index % stack.devnet.accounts.length];
    const recipient = getAddress(`0x${randomBytes(20).toString("hex")}`);
    await kind.before?.({ destination, recipient, token: currencyOut, solverKey: stack.devnet.solver.privateKey });

    // Quote: what was asked, priced, with the steps to pay it.
    const quoted = await postQuote(
      stack.api.url,
      {
        user: user.address,
        recipient,
        originChainId: origin.id,
        destinationChainId: destination.id,
        originCurrency: currencyIn,
        destinationCurrency: currencyOut,
        amount: kind.amount,
        tradeType: kind.tradeType ?? "EXACT_INPUT",
        ...kind.extra?.({ destination, recipient, user: user.address }),
      },
      key.key,
    );
    expect(quoted.status, JSON.stringify(quoted.body)).toBe(200);
    const quote = quoted.body;
    const requestId: string = quote.requestId;
    expect(quote.details).toMatchObject({
      operation: kind.operation,
      sender: user.address,
      recipient,
      currencyIn: { currency: { chainId: origin.id, address: currencyIn } },
      currencyOut: { currency: { chainId: destination.id, address: currencyOut } },
    });
    const quotedSide = kind.tradeType === "EXACT_OUTPUT" ? quote.details.currencyOut : quote.details.currencyIn;
    expect(quotedSide.amount).toBe(kind.amount);
    expect(quote.details.timeEstimate).toBeGreaterThan(0);
    expect(quote.steps.at(-1)).toMatchObject({ id: "deposit", kind: "transaction", requestId });
    expect(quote.steps.at(-1).items[0].check.endpoint).toBe(`/intents/status/v3?requestId=${requestId}`);
    const quotedIn = BigInt(quote.details.currencyIn.amount);
    const quotedOut = BigInt(quote.details.currencyOut.amount);

    // Pay, and measure what happened on the chains.
    const outBefore = await destinationClient.balanceOf(recipient, currencyOut);
    const callCredited = () =>
      destinationClient.publicClient.readContract({
        address: destination.callTarget as Address,
        abi: callTargetAbi,
        functionName: "credited",
        args: [recipient, zeroAddress],
      });
    const creditedBefore = kind.operation === "call" ? await callCredited() : 0n;
    const userInBefore = await originClient.balanceOf(user.address, currencyIn);
    const hashes = await sendSteps(quote, user, origin);
    const depositHash = hashes.deposit as Hex;
    const depositReceipt = await originClient.publicClient.getTransactionReceipt({ hash: depositHash });
    const depositBlock = await originClient.publicClient.getBlock({ blockNumber: depositReceipt.blockNumber });

    if (kind.ends === "refund")
      await checks.waitFor(
        () => checks.refundsOf(requestId),
        (rows) => rows.some((row) => row.status === "confirmed"),
        "a confirmed refund",
        60_000,
      );
    const { last: status } = await pollStatus(stack.api.url, requestId, { until: [kind.ends], timeoutMs: 60_000 });
    const events = await checks.events(requestId);
    const finished = Date.now();

    // What the chains say: the fill (or the refund) and what each party got.
    let fill: { hash: Hex; fee: bigint; block: bigint; timestamp: bigint } | undefined;
    let receivedAmount: bigint | undefined;
    if (kind.ends === "success") {
      const [fillHash] = status.txHashes as Hex[];
      const receipt = await destinationClient.publicClient.getTransactionReceipt({ hash: fillHash });
      expect(receipt.status).toBe("success");
      expect(receipt.to?.toLowerCase()).toBe(destination.receiver!.toLowerCase());
      const block = await destinationClient.publicClient.getBlock({ blockNumber: receipt.blockNumber });
      fill = {
        hash: fillHash,
        fee: receipt.gasUsed * receipt.effectiveGasPrice,
        block: receipt.blockNumber,
        timestamp: block.timestamp,
      };
      receivedAmount =
        kind.operation === "call"
          ? (await callCredited()) - creditedBefore
          : (await destinationClient.balanceOf(recipient, currencyOut)) - outBefore;
      expect(receivedAmount).toBeGreaterThan(0n);
    }
    const [refundRow] = kind.ends === "refund" ? await checks.refundsOf(requestId) : [];
    if (refundRow) {
      // The user got back the refund's amount: their balance moved by the deposit less it, no more.
      expect(await originClient.balanceOf(user.address, currencyIn)).toBe(
        userInBefore - quotedIn + BigInt(refundRow.amount),
      );
      expect(await destinationClient.balanceOf(recipient, currencyOut)).toBe(outBefore);
    }
    const depositedAmount = quotedIn;
    const depositFee = depositReceipt.gasUsed * depositReceipt.effectiveGasPrice;

    // Status endpoint.
    expect(status).toMatchObject({
      status: kind.ends,
      inTxHashes: [depositHash],
      originChainId: origin.id,
      destinationChainId: destination.id,
      failReason: kind.failReason ?? "N/A",
      refundFailReason: "N/A",
    });
    expect(status.updatedAt).toBeGreaterThanOrEqual(started);
    expect(status.updatedAt).toBeLessThanOrEqual(finished);
    if (fill) expect(status.txHashes).toEqual([fill.hash]);
    if (kind.ends === "success") expect(events).toEqual(["waiting", "pending", "submitted", "success"]);
    else expect(events.slice(-2)).toEqual(["failure", "refund"]);

    // The v3 record.
    const v3 = (await getJson(`/requests/v3?id=${requestId}`)).requests[0];
    // As /openapi.json describes it (its settlement in full).
    expect(await openapiRecordIssues(stack.api.url, v3)).toEqual([]);
    expect(v3).toMatchObject({
      id: requestId,
      status: kind.ends,
      requestType: kind.requestType,
      depositAddress: null,
      supersededByRequestId: null,
    });
    expect(v3.user.toLowerCase()).toBe(user.address.toLowerCase());
    expect(v3.sender).toBe(v3.user);
    // Refunds go back to the paying wallet.
    expect(v3.refundTo.toLowerCase()).toBe(user.address.toLowerCase());
    if (refundRow) expect(refundRow.recipient.toLowerCase()).toBe(user.address.toLowerCase());
    expect(v3.recipient.toLowerCase()).toBe(recipient.toLowerCase());
    expect(v3.features).toEqual(kind.features ?? []);
    const createdAt = Date.parse(v3.createdAt);
    expect(createdAt).toBeGreaterThanOrEqual(started - 1000);
    expect(createdAt).toBeLessThanOrEqual(Number(depositBlock.timestamp) * 1000 + 1000);
    expect(Date.parse(v3.updatedAt)).toBe(status.updatedAt);
    const data = v3.data;
    expect(data.failReason).toBe(kind.failReason ?? null);
    expect(data.refundFailReason).toBeNull();
    expect(data.inTxs).toEqual([
      expect.objectContaining({
        txHash: depositHash,
        fee: depositFee.toString(),
        block: Number(depositReceipt.blockNumber),
        chainId: origin.id,
        timestamp: Number(depositBlock.timestamp),
        status: "success",
      }),
    ]);
    expect(data.inTxs[0].data.amount).toBe(depositedAmount.toString());
    expect(v3.protocol.orderId).toBe(quote.protocol.v2.orderId);
    expect(v3.protocol.deposit.origin).toMatchObject({
      amount: depositedAmount.toString(),
      chainId: origin.id,
      transactionId: depositHash,
      depository: origin.depository,
    });
    expect(v3.protocol.deposit.origin.depositor.toLowerCase()).toBe(user.address.toLowerCase());
    const route = data.route;
    expect(route.actual.origin.inputCurrency).toMatchObject({
      amount: depositedAmount.toString(),
      currency: { chainId: origin.id, address: currencyIn },
    });
    const sameChain = origin.id === destination.id;
    if (fill) {
      expect(data.outTxs).toEqual([
        expect.objectContaining({
          txHash: fill.hash,
          fee: fill.fee.toString(),
          block: Number(fill.block),
          chainId: destination.id,
          timestamp: Number(fill.timestamp),
          status: "success",
        }),
      ]);
      expect(v3.protocol.settlement.destination).toEqual({
        fills: [{ chainId: destination.id, transactionId: fill.hash }],
        refunds: [],
      });
      // Received: on a same-chain request the origin side's output, else the destination's.
      const receivedSide = sameChain ? route.actual.origin.outputCurrency : route.actual.destination.outputCurrency;
      expect(receivedSide).toMatchObject({
        amount: receivedAmount!.toString(),
        currency: { chainId: destination.id, address: currencyOut },
      });
      if (sameChain) expect(route.actual.destination).toBeUndefined();
      else {
        expect(route.actual.origin.outputCurrency.amount).toBe(depositedAmount.toString());
        expect(route.actual.destination.inputCurrency.amount).toBe(quotedOut.toString());
      }
      // fees.actual from the fill: its execution is the gas the fill paid at the quote's price for that gas.
      const [{ quote: stored }] = (
        await stack.pool.query("SELECT quote FROM crossfill.requests WHERE id = $1", [requestId])
      ).rows;
      const quotedGas = -BigInt(data.fees.quoted.execution.amount);
      expect(BigInt(data.fees.actual.execution.amount)).toBe(-((fill.fee * quotedGas) / BigInt(stored.fillGas.amount)));
      expect(data.refundCurrencyData).toBeNull();
      expect(data.failedCallData).toBeNull();
    } else {
      expect(data.outTxs).toEqual([]);
      expect(v3.protocol.settlement.destination).toEqual({
        fills: [],
        refunds: [{ chainId: origin.id, transactionId: refundRow.tx_hash }],
      });
      // Nothing was received; the deposit came back less the refund's gas.
      expect(route.actual.origin.outputCurrency).toBeNull();
      expect(data.refundCurrencyData).toMatchObject({
        amount: refundRow.amount,
        currency: { chainId: origin.id, address: currencyIn },
      });
      expect(BigInt(refundRow.amount)).toBeLessThan(depositedAmount);
      // No fill: the actual fees are the quoted ones.
      expect(data.fees.actual).toEqual(data.fees.quoted);
      if (kind.failReason === "DESTINATION_TOKEN_TRANSFER_REJECTED")
        expect(data.failedCallData).toMatchObject({ to: destination.receiver, from: stack.devnet.solver.address });
      else expect(data.failedCallData).toBeNull();
    }
    const appFeeAmount = (fees: Array<{ amount: string }>) => fees.reduce((sum, fee) => sum + BigInt(fee.amount), 0n);
    expect(BigInt(data.fees.actual.app.amount)).toBe(-appFeeAmount(data.appFees.actual));
    expect(data.appFees.actual.length).toBe(kind.ends === "success" ? data.appFees.quoted.length : 0);

    // The v2 record: the same facts in the old shape.
    const v2 = (await getJson(`/requests/v2?id=${requestId}`)).requests[0];
    expect(await openapiRecordIssues(stack.api.url, v2, "v2")).toEqual([]);
    expect(v2).toMatchObject({ id: requestId, status: kind.ends });
    expect(v2.data.failReason).toBe(kind.failReason ?? "N/A");
    expect(v2.data.refundFailReason).toBe("N/A");
    expect(v2.data.inTxs).toEqual([
      expect.objectContaining({
        hash: depositHash,
        fee: depositFee.toString(),
        block: Number(depositReceipt.blockNumber),
        timestamp: Number(depositBlock.timestamp),
        feeCurrency: "eth",
      }),
    ]);
    expect(v2.data.outTxs.map((tx: { hash: string }) => tx.hash)).toEqual(fill ? [fill.hash] : []);
    expect(v2.data.metadata.currencyIn.amount).toBe(depositedAmount.toString());
    expect(v2.data.metadata.currencyOut.amount).toBe((receivedAmount ?? quotedOut).toString());
    expect(v2.data.refundCurrencyData).toEqual(data.refundCurrencyData);
    expect(v2.data.expandedPriceImpact.actual === null).toBe(!fill);

    // The webhook: every status, signed, with the status endpoint's facts at the end.
    await vi.waitFor(
      () => {
        const mine = hooks.received.filter((hook) => hook.body.data.requestId === requestId);
        expect(mine.map((hook) => hook.body.data.status)).toEqual(events);
        expect(mine.every((hook) => hook.valid && hook.body.event === "request.status.updated")).toBe(true);
        const final = mine.at(-1)!.body;
        expect(final.data).toMatchObject({
          status: kind.ends,
          inTxHashes: status.inTxHashes,
          txHashes: status.txHashes,
          originChainId: origin.id,
          destinationChainId: destination.id,
          failReason: kind.failReason ?? "N/A",
          refundFailReason: "N/A",
          depositAddress: null,
          updatedAt: status.updatedAt,
        });
        expect(final.timestamp).toBeGreaterThanOrEqual(status.updatedAt as number);
        // Before the end, failReason is N/A.
        for (const hook of mine.slice(0, -1))
          if (!["failure", "refund"].includes(hook.body.data.status)) expect(hook.body.data.failReason).toBe("N/A");
      },
      { timeout: 30_000, interval: 100 },
    );

    // GraphQL: the same record.
    const graphql = await postGraphql(
      stack.api.url,
      `query ($id: String!) { request(id: $id) {
        status requestType features failReason
        deposits { txHash blockNumber txFee amount timestamp }
        fills { txHash blockNumber txFee amount timestamp }
        refunds { txHash amount }
        refundCurrencyData { amount }
        fees { actual { execution { amount } app { amount } platform { amount } } }
        route { actual {
          origin { inputCurrency { amount } outputCurrency { amount } }
          destination { inputCurrency { amount } outputCurrency { amount } }
        } }
      } }`,
      { id: requestId },
      key.key,
    );
    expect(graphql.errors).toBeUndefined();
    const node = graphql.data.request;
    expect(node).toMatchObject({
      status: kind.ends,
      requestType: kind.requestType,
      features: v3.features,
      failReason: kind.failReason ?? null,
      deposits: [
        {
          txHash: depositHash,
          blockNumber: depositReceipt.blockNumber.toString(),
          txFee: depositFee.toString(),
          amount: depositedAmount.toString(),
          timestamp: Number(depositBlock.timestamp),
        },
      ],
      fills: fill
        ? [
            {
              txHash: fill.hash,
              blockNumber: fill.block.toString(),
              txFee: fill.fee.toString(),
              amount: receivedAmount!.toString(),
              timestamp: Number(fill.timestamp),
            },
          ]
        : [],
      refunds: refundRow ? [{ txHash: refundRow.tx_hash, amount: refundRow.amount }] : [],
      refundCurrencyData: data.refundCurrencyData && { amount: data.refundCurrencyData.amount },
      fees: {
        actual: {
          execution: { amount: data.fees.actual.execution.amount },
          app: { amount: data.fees.actual.app.amount },
          platform: { amount: data.fees.actual.platform.amount },
        },
      },
    });
    expect(node.route.actual.origin).toEqual({
      inputCurrency: { amount: route.actual.origin.inputCurrency.amount },
      outputCurrency: route.actual.origin.outputCurrency && { amount: route.actual.origin.outputCurrency.amount },
    });
    expect(node.route.actual.destination).toEqual(
      route.actual.destination
        ? {
            inputCurrency: { amount: route.actual.destination.inputCurrency.amount },
            outputCurrency: { amount: route.actual.destination.outputCurrency.amount },
          }
        : null,
    );
  });
});
