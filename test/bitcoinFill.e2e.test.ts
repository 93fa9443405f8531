import { Transaction, script as bscript } from "bitcoinjs-lib";
import { zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BITCOIN_NATIVE_CURRENCY } from "../src/chains/bitcoin/bitcoinFamily.js";
import { createEvmChainClient } from "../src/chains/evm/evmChainClient.js";
import { pollStatus } from "./support/pollStatus.js";
import { postQuote } from "./support/postQuote.js";
import { refundChecks } from "./support/refundChecks.js";
import { sendSteps } from "./support/sendSteps.js";
import { devnetEsplora } from "./support/devnetEsplora.js";
import { evmToFamilyFillCase } from "./support/evmToFamilyFillCase.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** EVM → BTC: the solver pays the recipient from its own Bitcoin wallet, and re-prices a payout left unmined. */
describe("EVM → Bitcoin, end to end", () => {
  let stack: TestStack;
  beforeAll(async () => {
    // A short bump window: a payout not mined within ~1 s (plus the 5 s recheck of submitted fills) is re-priced,
    // twice at most.
    // The service reads the chain through a proxy whose broadcasts can fail as a real Esplora's do; three refusals
    // of a payout start its cancellation.
    stack = await startTestStack({
      bitcoin: true,
      bitcoinProxy: true,
      stuckFill: { bumpAfterMs: 1_000, maxBumps: 2, maxBroadcastFailures: 3 },
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const btc = () => stack.bitcoin!.devnet;
  const { esplora, holdings } = devnetEsplora(() => stack);
  const quote = (recipient: string | undefined, amount: bigint, extra: Record<string, unknown> = {}) =>
    postQuote(stack.api.url, {
      user: stack.devnet.accounts[0].address,
      recipient,
      originChainId: stack.devnet.chains[0].id,
      destinationChainId: stack.bitcoin!.chain.id,
      originCurrency: zeroAddress,
      destinationCurrency: BITCOIN_NATIVE_CURRENCY,
      amount: amount.toString(),
      tradeType: "EXACT_INPUT",
      ...extra,
    });
  const fillAttempt = async (requestId: string) =>
    (
      await stack.pool.query<{ nonce: string | null; tx_hash: string; bumps: number; previous_tx_hashes: string[] }>(
        "SELECT nonce, tx_hash, bumps, previous_tx_hashes FROM crossfill.fill_attempts WHERE request_id = $1",
        [requestId],
      )
    ).rows[0];
  /** Quotes 0.1 ETH to `recipient` and deposits it; returns the quote and the user's ETH spent, to the wei. */
  async function deposit(recipient: string) {
    const origin = stack.devnet.chains[0];
    const evm = createEvmChainClient(origin).publicClient;
    const user = stack.devnet.accounts[0];
    const response = await quote(recipient, 10n ** 17n);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const { requestId } = response.body.steps[0];
    const userBefore = await evm.getBalance({ address: user.address });
    const polling = pollStatus(stack.api.url, requestId, { timeoutMs: 60_000, until: ["submitted"] });
    const { deposit: hash } = await sendSteps(response.body, user, origin);
    const receipt = await evm.getTransactionReceipt({ hash: hash! });
    expect(await evm.getBalance({ address: user.address })).toBe(
      userBefore - 10n ** 17n - receipt.gasUsed * receipt.effectiveGasPrice,
    );
    return { response, requestId, polling, amountOut: BigInt(response.body.details.currencyOut.amount) };
  }

  it("pays the recipient from the solver's wallet with the order id as OP_RETURN, success once mined", async () => {
    await evmToFamilyFillCase({
      stack: () => stack,
      chainId: () => stack.bitcoin!.chain.id,
      currency: BITCOIN_NATIVE_CURRENCY,
      recipient: () => btc().accounts[2]!.address,
      solver: () => stack.bitcoin!.chain.solver!,
      balance: holdings,
      // 0.1 ETH at $3,000 is $300: 0.005 BTC at $60,000, less the payout's network fee and the service fee.
      amountOut: { above: 490_000n, below: 500_000n },
      settle: async (requestId) => {
        const attempt = (await fillAttempt(requestId))!;
        expect(attempt.nonce).toBeNull();
        expect((await esplora(`/tx/${attempt.tx_hash}`)).status.confirmed).toBe(false);
        // Submitted is not success: the payout must be in a block.
        await sleep(1_500);
        expect((await pollStatus(stack.api.url, requestId, { until: ["submitted"] })).last.status).toBe("submitted");
        btc().mine(1);
      },
      solverCost: async (txHash) => BigInt((await esplora(`/tx/${txHash}`)).fee),
      checkFill: async ({ txHash, orderId, recipient, amountOut, quote }) => {
        expect(BigInt(quote.fees.relayerGas.amount)).toBeGreaterThan(0n);
        const solver = stack.bitcoin!.chain.solver!;
        const payout = await esplora(`/tx/${txHash}`);
        expect(payout.status.confirmed).toBe(true);
        expect(payout.vout[0]).toMatchObject({ scriptpubkey_address: recipient, value: Number(amountOut) });
        const memo = bscript.decompile(Buffer.from(payout.vout[1].scriptpubkey, "hex"))![1] as Uint8Array;
        expect(Buffer.from(memo).toString("latin1")).toBe(orderId);
        expect(payout.vout[2].scriptpubkey_address).toBe(solver);
        expect(
          payout.vin.every(
            (input: { prevout: { scriptpubkey_address: string } }) => input.prevout.scriptpubkey_address === solver,
          ),
        ).toBe(true);
      },
    });
  }, 90_000);

  it("re-prices a payout left in the mempool, twice: the same inputs at a higher fee each time, one paid", async () => {
    const recipient = btc().accounts[3]!.address;
    const solver = stack.bitcoin!.chain.solver!;
    const [recipientBefore, solverBefore] = [await holdings(recipient), await holdings(solver)];
    const { requestId, polling, amountOut } = await deposit(recipient);
    await polling;
    const first = (await fillAttempt(requestId))!;
    const firstTx = await esplora(`/tx/${first.tx_hash}`);
    const deadline = Date.now() + 45_000;
    while ((await fillAttempt(requestId))!.bumps < 2 && Date.now() < deadline) await sleep(200);
    const bumped = (await fillAttempt(requestId))!;
    expect(bumped.bumps).toBe(2);
    expect(bumped.previous_tx_hashes[0]).toBe(first.tx_hash);
    expect(bumped.previous_tx_hashes).toHaveLength(2);
    // Unmined past the bump window, twice: replaced each time (stored first, then broadcast); only the newest
    // version is in the mempool, with the same inputs and payment, at a higher fee.
    for (const replaced of bumped.previous_tx_hashes)
      expect((await fetch(`${btc().esploraUrl}/tx/${replaced}`)).status).toBe(404);
    const third = await esplora(`/tx/${bumped.tx_hash}`);
    const outpoints = (tx: { vin: { txid: string; vout: number }[] }) =>
      tx.vin.map((input) => `${input.txid}:${input.vout}`);
    expect(outpoints(third)).toEqual(outpoints(firstTx));
    expect(third.vout[0]).toEqual(firstTx.vout[0]);
    expect(third.fee).toBeGreaterThan(firstTx.fee);

    btc().mine(1);
    const { statuses, last } = await pollStatus(stack.api.url, requestId, { timeoutMs: 30_000 });
    expect(statuses.at(-1)).toBe("success");
    expect(last.txHashes).toEqual([bumped.tx_hash]);
    expect((await fillAttempt(requestId))!.bumps).toBe(2);
    expect(await holdings(recipient)).toBe(recipientBefore + amountOut);
    expect(await holdings(solver)).toBe(solverBefore - amountOut - BigInt(third.fee));
  }, 90_000);

  it("broadcasts a successful payout again when a reorg drops it, never a second payout; success stays", async () => {
    const recipient = btc().accounts[0]!.address;
    const solver = stack.bitcoin!.chain.solver!;
    const [recipientBefore, solverBefore] = [await holdings(recipient), await holdings(solver)];
    const { requestId, polling, amountOut } = await deposit(recipient);
    await polling;
    const payout = (await fillAttempt(requestId))!;
    btc().mine(1);
    // Success comes with the applied fill (reconcile, from the poller's fact): the payout is recorded in its block.
    await pollStatus(stack.api.url, requestId, { until: ["success"], timeoutMs: 30_000 });
    const applied = async () =>
      (
        await stack.pool.query<{ tx_hash: string; block_number: string }>(
          "SELECT tx_hash, block_number FROM crossfill.request_fills WHERE request_id = $1",
          [requestId],
        )
      ).rows;
    const [minedAt] = await applied();
    expect(minedAt!.tx_hash).toBe(payout.tx_hash);

    // The block leaves the chain and the payout with it (not back in the mempool): nobody holds it but the solver.
    btc().reorg(1, { dropTxids: [payout.tx_hash] });
    expect((await fetch(`${btc().esploraUrl}/tx/${payout.tx_hash}`)).status).toBe(404);
    expect(await holdings(recipient)).toBe(recipientBefore);
    const inMempool = async () => {
      const response = await fetch(`${btc().esploraUrl}/tx/${payout.tx_hash}`);
      return response.status === 200 && !(await response.json()).status.confirmed;
    };
    const deadline = Date.now() + 30_000;
    while (!(await inMempool()) && Date.now() < deadline) await sleep(100);
    // The same signed payout, broadcast again: same hash, same attempt, no new one.
    expect(await inMempool()).toBe(true);
    const after = (await fillAttempt(requestId))!;
    expect(after).toMatchObject({ tx_hash: payout.tx_hash, bumps: 0, previous_tx_hashes: [] });
    expect(await applied()).toEqual([]);
    const recorded = await stack.pool.query("SELECT payout_reorgs FROM crossfill.fill_attempts WHERE request_id = $1", [
      requestId,
    ]);
    expect(recorded.rows[0].payout_reorgs).toMatchObject([
      {
        source: "poller",
        txHash: payout.tx_hash,
        blockNumber: Number(minedAt!.block_number),
        action: "rebroadcast",
      },
    ]);
    // Success was never taken back, and nothing else was sent.
    expect(await refundChecks(stack).events(requestId)).toEqual(["waiting", "pending", "submitted", "success"]);

    btc().mine(1);
    const reapplied = Date.now() + 30_000;
    while ((await applied()).length === 0 && Date.now() < reapplied) await sleep(100);
    const [again] = await applied();
    expect(again!.tx_hash).toBe(payout.tx_hash);
    expect(Number(again!.block_number)).toBeGreaterThan(Number(minedAt!.block_number));
    const minedTx = await esplora(`/tx/${payout.tx_hash}`);
    expect(minedTx.status.confirmed).toBe(true);
    // Paid once, to the satoshi.
    expect(await holdings(recipient)).toBe(recipientBefore + amountOut);
    expect(await holdings(solver)).toBe(solverBefore - amountOut - BigInt(minedTx.fee));
    expect(await refundChecks(stack).events(requestId)).toEqual(["waiting", "pending", "submitted", "success"]);
  }, 90_000);

  const payoutState = async (requestId: string) =>
    (
      await stack.pool.query<{
        status: string;
        tx_hash: string | null;
        raw_tx: string | null;
        cancel_tx_hash: string | null;
        broadcast_failures: number | null;
      }>(
        `SELECT r.status, a.tx_hash, a.raw_tx, a.cancel_tx_hash, a.broadcast_failures
           FROM crossfill.requests r LEFT JOIN crossfill.fill_attempts a ON a.request_id = r.id WHERE r.id = $1`,
        [requestId],
      )
    ).rows[0]!;
  const inputsOf = (rawTx: string) =>
    Transaction.fromHex(rawTx).ins.map(
      (input) => `${Buffer.from(input.hash).reverse().toString("hex")}:${input.index}`,
    );

  it("never both pays and refunds a payout the node refuses but others mine; its inputs stay its own until it is settled", async () => {
    const proxy = stack.bitcoin!.proxy!;
    const recipient = btc().accounts[1]!.address;
    const recipientBefore = await holdings(recipient);
    proxy.fault = "refuse";
    const { requestId, polling } = await deposit(recipient);
    polling.catch(() => undefined);
    // Refused three times over (while other nodes got it): a cancellation is stored, or, before the fix, the request
    // failed and its deposit went back.
    const settled = Date.now() + 60_000;
    for (;;) {
      const state = await payoutState(requestId);
      const cancelStored = state.cancel_tx_hash && state.status === "submitted";
      if (cancelStored || ["failure", "refund"].includes(state.status) || Date.now() > settled) break;
      await sleep(200);
    }
    const cancelling = await payoutState(requestId);
    const payout = cancelling.tx_hash!;
    expect(cancelling.status).toBe("submitted");
    expect(cancelling.cancel_tx_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await refundChecks(stack).refundsOf(requestId)).toEqual([]);

    // Meanwhile another payout is signed: never from the inputs of the one being cancelled.
    proxy.fault = "pass";
    const other = await deposit(btc().accounts[2]!.address);
    await other.polling;
    const otherPayout = await payoutState(other.requestId);
    const taken = new Set(inputsOf(cancelling.raw_tx!));
    expect(inputsOf(otherPayout.raw_tx!).filter((input) => taken.has(input))).toEqual([]);

    // The next block holds the cancellation (it replaced the payout everywhere); one block is not yet the chain's
    // strictest confirmation tier (2): still no refund.
    btc().mine(1);
    await sleep(6_000);
    expect((await payoutState(requestId)).status).toBe("submitted");
    expect(await refundChecks(stack).refundsOf(requestId)).toEqual([]);
    // Buried under two blocks: the payout can never be mined; only now is the deposit refunded.
    btc().mine(1);
    const { last } = await pollStatus(stack.api.url, requestId, { until: ["refund"], timeoutMs: 60_000 });
    expect(last.status).toBe("refund");
    expect((await esplora(`/tx/${cancelling.cancel_tx_hash}`)).status.confirmed).toBe(true);
    expect((await fetch(`${btc().esploraUrl}/tx/${payout}`)).status).toBe(404);
    btc().mine(1);
    // Nothing more to mine of the payout: paid nothing, refunded once.
    expect(await holdings(recipient)).toBe(recipientBefore);
    expect(await refundChecks(stack).events(requestId)).toEqual([
      "waiting",
      "pending",
      "submitted",
      "failure",
      "refund",
    ]);
    await pollStatus(stack.api.url, other.requestId, { until: ["success"], timeoutMs: 30_000 });
  }, 150_000);

  it("retries a payout whose broadcasts fail in transport: no refusal counted, no cancellation, paid once it gets through", async () => {
    const proxy = stack.bitcoin!.proxy!;
    const recipient = btc().accounts[3]!.address;
    const recipientBefore = await holdings(recipient);
    proxy.fault = "down";
    const { requestId, polling, amountOut } = await deposit(recipient);
    polling.catch(() => undefined);
    const stored = Date.now() + 30_000;
    while (!(await payoutState(requestId)).tx_hash && Date.now() < stored) await sleep(200);
    // Several retries against a 502: none is the node's word on the payout.
    await sleep(4_000);
    const waiting = await payoutState(requestId);
    expect(waiting).toMatchObject({ status: "pending", broadcast_failures: 0, cancel_tx_hash: null });
    proxy.fault = "pass";
    await pollStatus(stack.api.url, requestId, { until: ["submitted"], timeoutMs: 60_000 });
    btc().mine(1);
    await pollStatus(stack.api.url, requestId, { until: ["success"], timeoutMs: 30_000 });
    expect(await holdings(recipient)).toBe(recipientBefore + amountOut);
    expect(await refundChecks(stack).refundsOf(requestId)).toEqual([]);
  }, 120_000);

  it("refuses what the solver cannot pay: dust outputs, recipients of another network or case, EVM recipients", async () => {
    const recipient = btc().accounts[4]!.address;
    const dust = await quote(recipient, 200n, { tradeType: "EXACT_OUTPUT" });
    expect(dust.status).toBe(400);
    expect(dust.body.errorCode).toBe("AMOUNT_TOO_LOW");
    expect(dust.body.message).toMatch(/below the smallest payment .* \(294\)/);
    for (const wrong of [
      "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
      recipient.replace("bcrt1q", "bcrt1Q"),
      BITCOIN_NATIVE_CURRENCY,
      stack.devnet.accounts[1].address,
      undefined,
    ]) {
      const refused = await quote(wrong, 10n ** 17n);
      expect(refused.status, String(wrong)).toBe(400);
      expect(refused.body.errorCode, String(wrong)).toBe("INVALID_ADDRESS");
    }
    const toSolver = await quote(stack.bitcoin!.chain.solver!, 10n ** 17n);
    expect(toSolver.body.errorCode).toBe("INVALID_RECIPIENT");
  });
});
