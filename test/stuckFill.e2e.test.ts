import { randomBytes } from "node:crypto";
import { type Address, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEvmChainClient } from "../src/chains/evm/evmChainClient.js";
import { pollStatus } from "./support/pollStatus.js";
import { postBridgeQuote } from "./support/postQuote.js";
import { refundChecks } from "./support/refundChecks.js";
import { sendSteps } from "./support/sendSteps.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";

/** A fill the destination chain does not mine is re-priced, then cancelled, and the deposit refunded. */
describe("a fill that is never mined, end to end", () => {
  let stack: TestStack;
  let checks: ReturnType<typeof refundChecks>;
  beforeAll(async () => {
    // A short bump window so the test does not wait real-chain minutes.
    stack = await startTestStack({ stuckFill: { bumpAfterMs: 1_000, maxBumps: 1, maxBroadcastFailures: 10 } });
    checks = refundChecks(stack);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("spends the fill's nonce on a cancellation and refunds the deposit (TRANSACTION_NOT_INCLUDED)", async () => {
    const [origin, destination] = stack.devnet.chains;
    const originClient = createEvmChainClient(origin);
    const destinationClient = createEvmChainClient(destination);
    const user = stack.devnet.accounts[0];
    const recipient = `0x${randomBytes(20).toString("hex")}` as Address;
    const rpc = (method: string, params: unknown[]) =>
      fetch(destination.rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      });
    const quote = await postBridgeQuote(stack.api.url, user, { origin, destination }, 20_000_000_000_000_000n, {
      recipient,
    });
    const requestId = quote.body.requestId;
    const before = await checks.balancesBefore(originClient, user.address, zeroAddress);
    const destinationSolverBefore = await destinationClient.publicClient.getBalance({
      address: stack.devnet.solver.address,
    });

    await rpc("evm_setIntervalMining", [0]); // the destination chain stops producing blocks
    try {
      const { deposit } = await sendSteps(quote.body, user, origin);
      await pollStatus(stack.api.url, requestId, { until: ["submitted"] });
      const attempt = await checks.waitFor(
        async () =>
          (
            await stack.pool.query("SELECT bumps, cancel_tx_hash FROM crossfill.fill_attempts WHERE request_id = $1", [
              requestId,
            ])
          ).rows[0],
        (row) => row?.cancel_tx_hash !== null && row?.cancel_tx_hash !== undefined,
        "the cancellation",
      );
      expect(attempt.bumps).toBe(1);
      await rpc("evm_setIntervalMining", [1]);
      const { last } = await pollStatus(stack.api.url, requestId, { until: ["refund"], timeoutMs: 60_000 });
      expect(last.failReason).toBe("TRANSACTION_NOT_INCLUDED");
      expect(await checks.events(requestId)).toEqual(["waiting", "pending", "submitted", "failure", "refund"]);
      await checks.expectRefunded({
        requestId,
        chainClient: originClient,
        currency: zeroAddress,
        user: user.address,
        depositTx: deposit,
        deposited: 20_000_000_000_000_000n,
        ...before,
      });
      // Nothing reached the recipient; the solver paid only the cancellation's gas on the destination.
      expect(await destinationClient.publicClient.getBalance({ address: recipient })).toBe(0n);
      const cancelGas = await checks.gasPaid(destinationClient, attempt.cancel_tx_hash);
      expect(await destinationClient.publicClient.getBalance({ address: stack.devnet.solver.address })).toBe(
        destinationSolverBefore - cancelGas,
      );
    } finally {
      await rpc("evm_setIntervalMining", [1]);
    }
  });
});
