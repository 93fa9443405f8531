import { randomBytes } from "node:crypto";
import { type Address, type Hex, encodeFunctionData, erc20Abi, getAddress } from "viem";
import { describe, expect, it, vi } from "vitest";
import { callTargetAbi } from "../contracts/abis.js";
import { webhooksOf } from "./support/listenForWebhooks.js";
import { pollStatus } from "./support/pollStatus.js";
import { createEvmChainClient } from "../src/chains/evm/evmChainClient.js";
import { postBridgeQuote, postQuote } from "./support/postQuote.js";
import { route } from "./support/route.js";
import { harmlessCall } from "./support/revertingCalls.js";
import { sendSteps } from "./support/sendSteps.js";
import { useStackWithWebhooks } from "./support/useStackWithWebhooks.js";

type Call = { to: string; value: string; data: Hex };

/** 20,000 turns of a countdown loop (~520k gas), then STOP: a contract that succeeds, and accepts ether, expensively. */
const BURNS_520K_GAS = "0x614e205b600190038060035700";

/**
 * The fail reasons the devnet can provoke from a fill's revert data: each request is quoted with a harmless
 * destination call, which is changed after the quote (the quote's own simulation refuses a call that reverts), so
 * the worker's fill meets the revert; the status and the v3 record carry the classified reason. ORDER_ALREADY_FILLED
 * is provoked in test/indexMissedSettlements.e2e.test.ts: only a fill the indexer missed leaves the worker to meet it
 * (one it sees makes the request succeed before the worker simulates its own).
 */
describe("fill fail reasons from revert data, end to end", () => {
  const { stack, readerKey, hooks, record } = useStackWithWebhooks();

  const chains = () => {
    const [origin, destination] = stack().devnet.chains;
    const rpc = (method: string, params: unknown[]) =>
      fetch(destination.rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      }).then((response) => response.json());
    const usdcOut = destination.currencies.find((c) => c.symbol === "USDC")!.address as Address;
    return { origin, destination, rpc, usdcOut };
  };
  const randomAddress = () => getAddress(`0x${randomBytes(20).toString("hex")}`);

  /** A native bridge of `value` with one harmless destination call, quoted; the calls then become `calls`. */
  async function quoteThenCall(accountIndex: number, value: bigint, calls?: Call[]) {
    const { origin, destination } = chains();
    const user = stack().devnet.accounts[accountIndex];
    const quote = await postBridgeQuote(stack().api.url, user, { origin, destination }, value, {
      tradeType: "EXACT_OUTPUT",
      txs: [harmlessCall(destination.callTarget, user.address)],
    });
    expect(quote.status).toBe(200);
    const requestId = quote.body.requestId as string;
    if (calls)
      await stack().pool.query("UPDATE crossfill.requests SET calls = $2 WHERE id = $1", [
        requestId,
        JSON.stringify(calls),
      ]);
    return { quote, requestId, user };
  }

  async function expectRefundedFor(calls: Call[], value: bigint, accountIndex: number) {
    const { origin } = chains();
    const { quote, requestId, user } = await quoteThenCall(accountIndex, value, calls);
    await sendSteps(quote.body, user, origin);
    const { last } = await pollStatus(stack().api.url, requestId, { until: ["refund"] });
    expect((await record(requestId)).data.failReason).toBe(last.failReason);
    return last as { failReason: string; details: Record<string, unknown> };
  }

  it("MISSING_REVERT_DATA: a destination call to a contract that reverts without data", async () => {
    const { rpc } = chains();
    const silent = randomAddress();
    await rpc("anvil_setCode", [silent, "0x60006000fd"]); // revert(0, 0)
    const last = await expectRefundedFor([{ to: silent, value: "0", data: "0x" }], 10n ** 15n, 0);
    expect(last).toMatchObject({
      failReason: "MISSING_REVERT_DATA",
      details: { callIndex: 0, message: "destination call 0 reverts without revert data" },
    });
  });

  it("TRANSFER_AMOUNT_EXCEEDS_BALANCE and _ALLOWANCE: a call moving tokens the executor does not hold or may not take", async () => {
    const { usdcOut } = chains();
    const tokenCall = (data: Hex) => ({ to: usdcOut, value: "0", data });
    const overdrawn = await expectRefundedFor(
      [tokenCall(encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [randomAddress(), 10n ** 30n] }))],
      10n ** 15n,
      1,
    );
    expect(overdrawn).toMatchObject({
      failReason: "TRANSFER_AMOUNT_EXCEEDS_BALANCE",
      details: { callIndex: 0, message: "destination call 0 reverts: InsufficientBalance" },
    });
    const unapproved = await expectRefundedFor(
      [
        tokenCall(
          encodeFunctionData({
            abi: erc20Abi,
            functionName: "transferFrom",
            args: [stack().devnet.solver.address, randomAddress(), 1n],
          }),
        ),
      ],
      10n ** 15n,
      2,
    );
    expect(unapproved).toMatchObject({ failReason: "TRANSFER_AMOUNT_EXCEEDS_ALLOWANCE", details: { callIndex: 0 } });
  });

  it("TRANSFER_FAILED: a call paying with a token that is no contract", async () => {
    const { destination } = chains();
    const last = await expectRefundedFor(
      [
        {
          to: destination.callTarget,
          value: "0",
          data: encodeFunctionData({
            abi: callTargetAbi,
            functionName: "deposit",
            args: [randomAddress(), randomAddress(), 1n],
          }),
        },
      ],
      10n ** 15n,
      3,
    );
    expect(last).toMatchObject({
      failReason: "TRANSFER_FAILED",
      details: { message: "destination call 0 reverts: NotAContract" },
    });
  });

  it("TRANSFER_FROM_FAILED: a token deposit into a solmate-style vault whose allowance was withdrawn before it", async () => {
    const { origin, destination, usdcOut } = chains();
    const usdcIn = origin.currencies.find((c) => c.symbol === "USDC")!.address;
    const user = stack().devnet.accounts[0];
    const vault = destination.callTarget as Address;
    const amount = 5_000_000n;
    const approve = (allowance: bigint): Call => ({
      to: usdcOut,
      value: "0",
      data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [vault, allowance] }),
    });
    const depositInto: Call = {
      to: vault,
      value: "0",
      data: encodeFunctionData({
        abi: callTargetAbi,
        functionName: "depositSolmate",
        args: [user.address, usdcOut, amount],
      }),
    };
    const quote = await postQuote(
      stack().api.url,
      {
        user: user.address,
        ...route(origin, destination, usdcIn, usdcOut),
        amount: amount.toString(),
        tradeType: "EXACT_OUTPUT",
        txs: [approve(amount), depositInto],
      },
      readerKey(),
    );
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    const requestId = quote.body.steps.at(-1).requestId as string;
    // Before the fill, the approval becomes its withdrawal: the vault's transferFrom is refused and says only that.
    await stack().pool.query("UPDATE crossfill.requests SET calls = $2 WHERE id = $1", [
      requestId,
      JSON.stringify([approve(0n), depositInto]),
    ]);
    await sendSteps(quote.body, user, origin);
    const { last } = await pollStatus(stack().api.url, requestId, { until: ["refund"] });
    expect(last).toMatchObject({
      failReason: "TRANSFER_FROM_FAILED",
      details: {
        errorCode: "DESTINATION_TX_FAILED",
        callIndex: 1,
        message: "destination call 1 reverts: TRANSFER_FROM_FAILED",
      },
    });
    expect((await record(requestId)).data).toMatchObject({ failReason: "TRANSFER_FROM_FAILED", failedTxHash: null });
    await vi.waitFor(
      () =>
        expect(webhooksOf(hooks(), requestId).filter((update) => update.failReason !== "N/A")).toEqual([
          expect.objectContaining({ status: "failure", failReason: "TRANSFER_FROM_FAILED" }),
          expect.objectContaining({ status: "refund", failReason: "TRANSFER_FROM_FAILED" }),
        ]),
      { timeout: 15_000, interval: 100 },
    );
    // The vault took nothing; the refund paid the deposit back.
    const credited = await createEvmChainClient(destination).publicClient.readContract({
      address: vault,
      abi: callTargetAbi,
      functionName: "credited",
      args: [user.address, usdcOut],
    });
    expect(credited).toBe(0n);
  });

  it("INSUFFICIENT_NATIVE_TOKENS_SUPPLIED: a call sending more ether than the fill brought", async () => {
    const value = 10n ** 15n;
    const last = await expectRefundedFor(
      [{ to: randomAddress(), value: (value + 1n).toString(), data: "0x" }],
      value,
      4,
    );
    expect(last).toMatchObject({
      failReason: "INSUFFICIENT_NATIVE_TOKENS_SUPPLIED",
      details: {
        callIndex: 0,
        message: `destination call 0 reverts: calls 0 to 0 send ${value + 1n} wei, the fill brought ${value}`,
      },
    });
  });

  it("attack: a destination call that burns more gas than the quote charged is refused before signing: the solver pays no gas", async () => {
    const { destination, rpc } = chains();
    const burner = randomAddress();
    // It succeeds, so every simulation passes; only its gas is more than the one call the quote charged for.
    await rpc("anvil_setCode", [burner, BURNS_520K_GAS]);
    const solver = stack().devnet.solver.address as Address;
    const destinationClient = createEvmChainClient(destination).publicClient;
    const nonceBefore = await destinationClient.getTransactionCount({ address: solver });
    const { quote, requestId, user } = await quoteThenCall(1, 10n ** 15n, [{ to: burner, value: "0", data: "0x" }]);
    await sendSteps(quote.body, user, chains().origin);
    const { last } = await pollStatus(stack().api.url, requestId, { until: ["refund"] });
    expect(last).toMatchObject({ failReason: "QUOTED_GAS_LIMIT_EXCEEDED" });
    expect(String((last.details as { message?: string }).message)).toMatch(
      /the fill needs \d+ gas, more than the \d+ its quote allows/,
    );
    expect((await record(requestId)).data).toMatchObject({
      failReason: "QUOTED_GAS_LIMIT_EXCEEDED",
      failedTxHash: null,
    });
    // No fill was signed or sent: none stored, the solver's nonce on the destination where it was.
    const attempts = await stack().pool.query(
      "SELECT count(*)::int AS n FROM crossfill.fill_attempts WHERE request_id = $1",
      [requestId],
    );
    expect(attempts.rows[0].n).toBe(0);
    expect(await destinationClient.getTransactionCount({ address: solver })).toBe(nonceBefore);
  });

  it("attack: a refundTo contract that burns more gas than the refund's fee charged gets no refund sent: an operator decides", async () => {
    const { origin, destination } = chains();
    const burner = randomAddress();
    await fetch(origin.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "anvil_setCode", params: [burner, BURNS_520K_GAS] }),
    });
    const user = stack().devnet.accounts[2];
    const quote = await postBridgeQuote(stack().api.url, user, { origin, destination }, 10n ** 15n, {
      refundTo: burner,
      referrer: "debug-force-refund",
    });
    expect(quote.status).toBe(200);
    const requestId = quote.body.requestId as string;
    await sendSteps(quote.body, user, origin);
    await vi.waitFor(
      async () => {
        const { rows } = await stack().pool.query(
          "SELECT status, tx_hash, refund_fail_reason, note FROM crossfill.refunds WHERE request_id = $1",
          [requestId],
        );
        expect(rows).toEqual([
          {
            status: "manual",
            tx_hash: null,
            refund_fail_reason: "MANUAL_REFUND_REQUIRED",
            note: expect.stringMatching(
              /^the refund cannot be sent: the refund needs \d+ gas, more than the \d+ its fee allows/,
            ),
          },
        ]);
      },
      { timeout: 30_000, interval: 200 },
    );
    const { last } = await pollStatus(stack().api.url, requestId, { until: ["failure"] });
    expect(last).toMatchObject({ status: "failure", refundFailReason: "MANUAL_REFUND_REQUIRED" });
  });

  it("QUOTED_GAS_LIMIT_EXCEEDED: a sent fill whose destination call burns all its gas by the time it is mined", async () => {
    const { origin, rpc } = chains();
    const target = randomAddress();
    await rpc("anvil_setCode", [target, "0x00"]); // STOP: the quote's and the fill's simulations pass
    const { quote, requestId, user } = await quoteThenCall(1, 10n ** 15n, [{ to: target, value: "0", data: "0x" }]);
    await rpc("evm_setIntervalMining", [0]); // the destination holds the sent fill unmined
    try {
      await sendSteps(quote.body, user, origin);
      await pollStatus(stack().api.url, requestId, { until: ["submitted"] });
      await rpc("anvil_setCode", [target, "0x5b600056"]); // JUMPDEST PUSH1 0 JUMP: loops until out of gas
    } finally {
      await rpc("evm_setIntervalMining", [1]);
    }
    const { last } = await pollStatus(stack().api.url, requestId, { until: ["refund"] });
    expect(last).toMatchObject({ failReason: "QUOTED_GAS_LIMIT_EXCEEDED" });
    const listed = await record(requestId);
    expect(listed.data).toMatchObject({ failReason: "QUOTED_GAS_LIMIT_EXCEEDED", failedTxHash: expect.any(String) });
  });
});
