import { type Address, encodeFunctionData, erc20Abi, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { receiverAbi } from "../contracts/abis.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEvmChainClient } from "../src/chains/evm/evmChainClient.js";
import { pollStatus } from "./support/pollStatus.js";
import { postQuote } from "./support/postQuote.js";
import { harmlessCall } from "./support/revertingCalls.js";
import { route } from "./support/route.js";
import { sendSteps } from "./support/sendSteps.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";

type Tx = { to: string; value: string; data: string };

// Issue 22 item 1: a quote's destination calls must never reach the solver's inventory.
describe("destination calls as an attacker writes them, through the public API", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const setup = () => {
    const [origin, destination] = stack.devnet.chains;
    const usdcOut = destination.currencies.find((c) => c.symbol === "USDC")!.address as Address;
    const destinationClient = createEvmChainClient(destination);
    const solver = stack.devnet.solver.address;
    // Someone with nothing on the destination: whatever USDC it ends with was taken.
    const attacker = privateKeyToAccount(generatePrivateKey()).address;
    return {
      origin,
      destination,
      usdcOut,
      destinationClient,
      solver,
      attacker,
      /** USDC.transferFrom(solver, attacker, amount), as a destination call. */
      steal: (amount: bigint): Tx => ({
        to: usdcOut,
        value: "0",
        data: encodeFunctionData({ abi: erc20Abi, functionName: "transferFrom", args: [solver, attacker, amount] }),
      }),
      /** A 0.01 ETH bridge paying the attacker, with the given calls. */
      tinyBridge: (user: string, txs: Tx[]) =>
        postQuote(stack.api.url, {
          user,
          recipient: attacker,
          ...route(origin, destination),
          amount: parseEther("0.01").toString(),
          tradeType: "EXACT_INPUT",
          txs,
        }),
      usdcOf: (account: Address) => destinationClient.balanceOf(account, usdcOut),
    };
  };

  it("a tiny bridge whose call is USDC.transferFrom(solver, attacker) takes nothing from the solver", async () => {
    const { origin, solver, attacker, steal, tinyBridge, usdcOf } = setup();
    const payer = stack.devnet.accounts[0];
    const stolen = 500_000_000_000n; // 500,000 USDC
    const solverBefore = await usdcOf(solver);
    expect(solverBefore).toBeGreaterThan(stolen);

    const quote = await tinyBridge(payer.address, [steal(stolen)]);
    if (quote.status === 200) {
      // Accepted at quote time: it must then fail and be refunded, never pay out the solver's tokens.
      await sendSteps(quote.body, payer, origin);
      const { last } = await pollStatus(stack.api.url, quote.body.steps[0].requestId);
      expect(last.status).not.toBe("success");
    } else {
      expect(quote.status).toBeGreaterThanOrEqual(400);
      expect(quote.status).toBeLessThan(500);
      expect(quote.body.errorCode).toBe("DESTINATION_TX_FAILED");
    }
    expect(await usdcOf(attacker)).toBe(0n);
    expect(await usdcOf(solver)).toBe(solverBefore);
  });

  it("the same call slipped past the quote (the stored calls changed before the fill) fails and is refunded", async () => {
    const { origin, destination, solver, attacker, steal, tinyBridge, usdcOf } = setup();
    const payer = stack.devnet.accounts[1];
    const solverBefore = await usdcOf(solver);
    const quote = await tinyBridge(payer.address, [harmlessCall(destination.callTarget, attacker)]);
    expect(quote.status).toBe(200);
    const requestId = quote.body.steps[0].requestId;
    await stack.pool.query("UPDATE crossfill.requests SET calls = $2 WHERE id = $1", [
      requestId,
      JSON.stringify([steal(10n ** 12n)]),
    ]);
    await sendSteps(quote.body, payer, origin);
    const { last } = await pollStatus(stack.api.url, requestId, { until: ["refund", "success"] });
    // The executor holds no allowance of the solver's: the token says so, and the reason says what it said.
    expect(last).toMatchObject({ status: "refund", failReason: "TRANSFER_AMOUNT_EXCEEDS_ALLOWANCE" });
    expect(await usdcOf(attacker)).toBe(0n);
    expect(await usdcOf(solver)).toBe(solverBefore);
  });

  it("refuses calls to the Receiver, the Depository and the call executor at quote time", async () => {
    const { destination, destinationClient, tinyBridge } = setup();
    const executor = await destinationClient.publicClient.readContract({
      address: destination.receiver as Address,
      abi: receiverAbi,
      functionName: "executor",
    });
    for (const to of [destination.receiver, destination.depository, executor, executor.toLowerCase()]) {
      const quote = await tinyBridge(stack.devnet.accounts[0].address, [{ to, value: "0", data: "0x" }]);
      expect(quote.status).toBe(400);
      expect(quote.body).toMatchObject({ errorCode: "INVALID_INPUT", message: expect.stringContaining("txs[0].to") });
    }
  });
});
