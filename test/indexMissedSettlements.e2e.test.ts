import type { Queue } from "bullmq";
import {
  type Address,
  type Hex,
  createWalletClient,
  encodeAbiParameters,
  encodeEventTopics,
  encodeFunctionData,
  http,
  parseEther,
  zeroAddress,
} from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import { describe, expect, it, vi } from "vitest";
import { depositoryAbi, receiverAbi } from "../contracts/abis.js";
import { QUEUES } from "../jobs/queues.js";
import type { EvmChainConfig } from "../src/chains/chainConfig.js";
import { createEvmChainClient, toViemChain } from "../src/chains/evm/evmChainClient.js";
import { webhooksOf } from "./support/listenForWebhooks.js";
import { NOTHING_INDEXED, manualIndexProbes } from "./support/manualIndexProbes.js";
import { pollStatus } from "./support/pollStatus.js";
import { postBridgeQuote, postQuote } from "./support/postQuote.js";
import { route } from "./support/route.js";
import { harmlessCall, revertCallsBeforeFill } from "./support/revertingCalls.js";
import { sendSteps } from "./support/sendSteps.js";
import { useStackWithWebhooks } from "./support/useStackWithWebhooks.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Fills and refunds the indexer never saw (every indexer role is stopped once the stack is up: Ponder, the head
 * watcher), brought in by POST /transactions/index: the request reaches its status from them, and the route's abuses
 * (another contract's log dressed as ours, a transaction that settles nothing, the same one twice, a hash sent with
 * the wrong chain) each end in a defined answer with nothing recorded wrongly.
 */
describe("POST /transactions/index brings in fills and refunds the indexer missed", () => {
  const { stack, readerKey, hooks } = useStackWithWebhooks({ stopIndexers: true });

  const { index, written, statusEvents, record, sentRefund, refundIndexed } = manualIndexProbes(stack, readerKey);
  const chains = () => {
    const [origin, destination] = stack().devnet.chains;
    return { origin, destination };
  };
  const send = async (
    account: PrivateKeyAccount,
    chain: EvmChainConfig,
    tx: { to?: Address; data?: Hex; value?: bigint },
  ) => {
    const wallet = createWalletClient({ account, chain: toViemChain(chain), transport: http(chain.rpcUrl) });
    const hash = await wallet.sendTransaction({ ...tx, to: tx.to ?? null });
    const receipt = await createEvmChainClient(chain).publicClient.waitForTransactionReceipt({
      hash,
      pollingInterval: 50,
    });
    expect(receipt.status).toBe("success");
    return hash;
  };
  /** The solver's key pays a native request on the destination's Receiver, outside Crossfill's own fill attempts. */
  const fillByHand = (requestId: string, amount: bigint, recipient: Address) =>
    send(stack().devnet.solver, chains().destination, {
      to: chains().destination.receiver as Address,
      data: encodeFunctionData({
        abi: receiverAbi,
        functionName: "fill",
        args: [requestId as Hex, zeroAddress, amount, recipient, []],
      }),
      value: amount,
    });
  /**
   * A contract creation whose constructor emits `topics`/`data` as a log: the same event, from an address that is
   * not the service's contract.
   */
  const emitLogInitCode = (topics: Hex[], data: Hex): Hex => {
    const words = data.slice(2).match(/.{64}/g)!;
    const push32 = (word: string) => `7f${word.replace(/^0x/, "")}`;
    const stores = words.map((word, i) => `${push32(word)}60${(i * 32).toString(16).padStart(2, "0")}52`).join("");
    const size = (words.length * 32).toString(16).padStart(2, "0");
    const pushedTopics = [...topics].reverse().map(push32).join("");
    return `0x${stores}${pushedTopics}60${size}6000a${topics.length.toString(16)}00`;
  };

  it("a fill the indexer missed, sent by hand while the fill role is held, makes the request succeed once indexed", async () => {
    const { origin, destination } = chains();
    const user = stack().devnet.accounts[0];
    const fillQueue: Queue = stack().queues.createQueue(QUEUES.fill);
    // The worker takes no fill job: the operator fills by hand, and the indexer is not there to see it.
    await fillQueue.pause();
    try {
      const quote = await postBridgeQuote(stack().api.url, user, { origin, destination }, parseEther("0.01"));
      expect(quote.status).toBe(200);
      const requestId = quote.body.steps[0].requestId as string;
      const { deposit } = await sendSteps(quote.body, user, origin);
      // Nothing indexes the deposit: the request waits until it is indexed by hand.
      await sleep(1_500);
      expect((await pollStatus(stack().api.url, requestId, { until: ["waiting"] })).last.status).toBe("waiting");
      expect(await index(deposit, origin.id)).toMatchObject({
        status: 200,
        body: { deposits: 1, recorded: 1, fills: 0 },
      });
      await pollStatus(stack().api.url, requestId, { until: ["pending"] });

      // A Fill event for this request naming our solver, logged by a contract that is not the Receiver: no fill.
      const amountOut = BigInt(quote.body.details.currencyOut.amount);
      const forged = await send(stack().devnet.accounts[4], destination, {
        data: emitLogInitCode(
          encodeEventTopics({
            abi: receiverAbi,
            eventName: "Fill",
            args: { requestId: requestId as Hex, solver: stack().devnet.solver.address, currency: zeroAddress },
          }) as Hex[],
          encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [user.address, amountOut]),
        ),
      });
      const before = await written();
      expect(await index(forged, destination.id)).toEqual(NOTHING_INDEXED);
      // A transaction that settles nothing (a plain transfer): the same answer.
      const transfer = await send(user, destination, { to: stack().devnet.accounts[1].address, value: 1n });
      expect((await index(transfer, destination.id)).body).toMatchObject({ deposits: 0, fills: 0, refunds: 0 });
      expect(await written()).toEqual(before);

      // The solver's key pays the request on the Receiver, outside Crossfill's own attempts.
      const fill = await fillByHand(requestId, amountOut, user.address);
      await sleep(1_500);
      expect((await pollStatus(stack().api.url, requestId, { until: ["pending"] })).last.status).toBe("pending");
      // The fill's hash sent with the origin chain: that chain has no such transaction.
      expect(await index(fill, origin.id)).toMatchObject({
        status: 404,
        body: { errorCode: "TRANSACTION_NOT_FOUND" },
      });
      expect(await written()).toEqual(before);

      expect(await index(fill, destination.id)).toMatchObject({ status: 200, body: { deposits: 0, fills: 1 } });
      const { last } = await pollStatus(stack().api.url, requestId);
      expect(last).toMatchObject({ status: "success", txHashes: [fill] });
      const applied = await stack().pool.query(
        "SELECT tx_hash, amount, provisional FROM crossfill.request_fills WHERE request_id = $1",
        [requestId],
      );
      expect(applied.rows).toEqual([{ tx_hash: fill, amount: amountOut.toString(), provisional: false }]);
      const filled = await record(requestId);
      expect(filled.protocol.settlement.destination.fills).toEqual([{ chainId: destination.id, transactionId: fill }]);
      // Confirmed by the index (no `metadata.confirmedBy`: it never was the solver's receipt).
      expect(filled.data.outTxs).toEqual([
        expect.objectContaining({
          txHash: fill,
          chainId: destination.id,
          status: "success",
          data: expect.objectContaining({ amount: amountOut.toString() }),
        }),
      ]);
      expect(filled.data.outTxs[0]).not.toHaveProperty("metadata");

      // Indexed again: nothing more is recorded, the request moves no further.
      expect(await index(fill, destination.id)).toMatchObject({ status: 200, body: { fills: 1 } });
      await sleep(500);
      expect(await statusEvents(requestId)).toEqual(["waiting", "pending", "success"]);
      expect(
        (await stack().pool.query("SELECT count(*)::int AS n FROM crossfill.fill_facts WHERE tx_hash = $1", [fill]))
          .rows[0].n,
      ).toBe(1);

      // The held fill job runs now and finds the request paid: no fill of Crossfill's own is signed.
      await fillQueue.resume();
      await vi.waitFor(
        async () => {
          const counts = await fillQueue.getJobCounts("waiting", "active", "prioritized");
          expect(counts.waiting + counts.active + counts.prioritized).toBe(0);
        },
        { timeout: 15_000, interval: 100 },
      );
      const attempts = await stack().pool.query("SELECT 1 FROM crossfill.fill_attempts WHERE request_id = $1", [
        requestId,
      ]);
      expect(attempts.rows).toEqual([]);
    } finally {
      await fillQueue.resume();
      await fillQueue.close();
    }
  }, 90_000);

  it("the worker's own fill the indexer missed: success on its receipt, confirmed once indexed", async () => {
    const { origin, destination } = chains();
    const user = stack().devnet.accounts[1];
    const quote = await postBridgeQuote(stack().api.url, user, { origin, destination }, parseEther("0.01"));
    const requestId = quote.body.steps[0].requestId as string;
    const { deposit } = await sendSteps(quote.body, user, origin);
    expect((await index(deposit, origin.id)).body).toMatchObject({ deposits: 1, recorded: 1 });
    const { last } = await pollStatus(stack().api.url, requestId);
    expect(last.status).toBe("success");
    const [fill] = last.txHashes as string[];
    // Known from the solver's receipt only: the record says so.
    const byReceipt = await record(requestId);
    expect(byReceipt.data.outTxs).toEqual([
      expect.objectContaining({ txHash: fill, metadata: expect.objectContaining({ confirmedBy: "receipt" }) }),
    ]);
    expect(byReceipt.protocol.settlement.destination.fills).toEqual([{ chainId: destination.id, transactionId: fill }]);

    expect((await index(fill, destination.id)).body).toMatchObject({ deposits: 0, fills: 1, refunds: 0 });
    await vi.waitFor(async () => expect((await record(requestId)).data.outTxs[0]).not.toHaveProperty("metadata"), {
      timeout: 10_000,
      interval: 100,
    });
    expect(await statusEvents(requestId)).toEqual(["waiting", "pending", "submitted", "success"]);
  }, 90_000);

  it("ORDER_ALREADY_FILLED: a fill the indexer missed lands before the deposit is indexed; the worker's own fill meets AlreadyFilled", async () => {
    const { origin, destination } = chains();
    const user = stack().devnet.accounts[3];
    // Quoted with the key: its webhook follows the request.
    const quote = await postQuote(
      stack().api.url,
      {
        user: user.address,
        ...route(origin, destination),
        amount: parseEther("0.01").toString(),
        tradeType: "EXACT_INPUT",
      },
      readerKey(),
    );
    expect(quote.status).toBe(200);
    const requestId = quote.body.steps[0].requestId as string;
    const { deposit } = await sendSteps(quote.body, user, origin);
    // The solver's key pays the request by hand while it still waits; the indexer is not there to see it.
    const amountOut = BigInt(quote.body.details.currencyOut.amount);
    await fillByHand(requestId, amountOut, user.address);
    const recipientBefore = await createEvmChainClient(destination).publicClient.getBalance({ address: user.address });
    expect((await index(deposit, origin.id)).body).toMatchObject({ deposits: 1, recorded: 1 });

    const { last } = await pollStatus(stack().api.url, requestId);
    expect(last).toMatchObject({
      status: "failure",
      failReason: "ORDER_ALREADY_FILLED",
      refundFailReason: "N/A",
      details: { errorCode: "DESTINATION_TX_FAILED", message: "the Receiver has this request filled" },
    });
    const { data } = await record(requestId);
    expect(data).toMatchObject({ failReason: "ORDER_ALREADY_FILLED", failedTxHash: null });
    expect([data.failedCallData.from, data.failedCallData.to].map((a: string) => a.toLowerCase())).toEqual([
      stack().devnet.solver.address.toLowerCase(),
      destination.receiver.toLowerCase(),
    ]);
    // The recipient was paid once, by the hand fill; the deposit is not paid back as well, and nothing was sent.
    const refunds = await stack().pool.query("SELECT id FROM crossfill.refunds WHERE request_id = $1", [requestId]);
    expect(refunds.rows).toEqual([]);
    const attempts = await stack().pool.query("SELECT 1 FROM crossfill.fill_attempts WHERE request_id = $1", [
      requestId,
    ]);
    expect(attempts.rows).toEqual([]);
    expect(await createEvmChainClient(destination).publicClient.getBalance({ address: user.address })).toBe(
      recipientBefore,
    );
    expect(await statusEvents(requestId)).toEqual(["waiting", "pending", "failure"]);
    await vi.waitFor(
      () => {
        const updates = webhooksOf(hooks(), requestId);
        expect(updates.map((update) => update.status)).toEqual(["waiting", "pending", "failure"]);
        expect(updates.at(-1)).toMatchObject({ failReason: "ORDER_ALREADY_FILLED", refundFailReason: "N/A" });
      },
      { timeout: 15_000, interval: 100 },
    );
  }, 90_000);

  it("a refund the indexer missed moves the failed request to refund once indexed", async () => {
    const { origin, destination } = chains();
    const user = stack().devnet.accounts[2];
    const quote = await postBridgeQuote(stack().api.url, user, { origin, destination }, parseEther("0.01"), {
      tradeType: "EXACT_OUTPUT",
      txs: [harmlessCall(destination.callTarget, user.address)],
    });
    expect(quote.status).toBe(200);
    const requestId = quote.body.steps[0].requestId as string;
    await revertCallsBeforeFill(stack().pool, requestId, destination.callTarget);
    const { deposit } = await sendSteps(quote.body, user, origin);
    expect((await index(deposit, origin.id)).body).toMatchObject({ deposits: 1, recorded: 1 });
    expect((await pollStatus(stack().api.url, requestId, { until: ["failure"] })).last.status).toBe("failure");

    // The worker sends the refund; mined, it waits for the indexer, which is not there.
    const sent = (await sentRefund(requestId)) as Hex;
    const receipt = await createEvmChainClient(origin).publicClient.waitForTransactionReceipt({
      hash: sent,
      pollingInterval: 50,
    });
    expect(receipt.status).toBe("success");
    await sleep(2_500);
    expect((await pollStatus(stack().api.url, requestId, { until: ["failure"] })).last.status).toBe("failure");

    // A Withdrawal for this order logged by a contract that is not the Depository: no refund.
    const order = quote.body.protocol.v2.orderId as Hex;
    const forged = await send(stack().devnet.accounts[4], origin, {
      data: emitLogInitCode(
        encodeEventTopics({
          abi: depositoryAbi,
          eventName: "Withdrawal",
          args: { orderId: order, currency: zeroAddress, to: user.address },
        }) as Hex[],
        encodeAbiParameters([{ type: "uint256" }], [parseEther("0.01")]),
      ),
    });
    const before = await written();
    expect((await index(forged, origin.id)).body).toMatchObject({ deposits: 0, fills: 0, refunds: 0 });
    // The refund's hash sent with the destination chain: unknown there.
    expect(await index(sent, destination.id)).toMatchObject({
      status: 404,
      body: { errorCode: "TRANSACTION_NOT_FOUND" },
    });
    expect(await written()).toEqual(before);

    await refundIndexed(requestId, sent, origin.id);
  }, 90_000);
});
