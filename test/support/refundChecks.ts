import type { Address, Hex } from "viem";
import { zeroAddress } from "viem";
import { expect } from "vitest";
import { type EvmChainClient } from "../../src/chains/evm/evmChainClient.js";
import { GAS_ESTIMATES } from "../../src/chains/evm/gasEstimates.js";
import type { TestStack } from "./startTestStack.js";

/**
 * What the refund tests read and assert: a request's outbox, its refunds, gas paid, and a refund checked
 * to the wei on the user, the Depository and the solver.
 */
export function refundChecks(stack: Pick<TestStack, "pool" | "devnet">) {
  const events = async (requestId: string) =>
    (
      await stack.pool.query("SELECT to_status FROM crossfill.status_events WHERE request_id = $1 ORDER BY id", [
        requestId,
      ])
    ).rows.map((r) => r.to_status);
  const refundsOf = async (requestId: string) =>
    (await stack.pool.query("SELECT * FROM crossfill.refunds WHERE request_id = $1 ORDER BY id", [requestId])).rows;
  const gasPaid = async (client: EvmChainClient, hash: Hex) => {
    const receipt = await client.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    return receipt.gasUsed * receipt.effectiveGasPrice;
  };
  async function waitFor<T>(
    read: () => Promise<T>,
    done: (value: T) => boolean,
    what: string,
    timeoutMs = 30_000,
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** The balances a refund is checked against: the user's and the Depository's in the currency, the solver's gas. */
  async function balancesBefore(client: EvmChainClient, user: Address, currency: Address) {
    return {
      userBefore: await client.balanceOf(user, currency),
      depositoryBefore: await client.balanceOf(client.chain.depository as Address, currency),
      solverBefore: await client.publicClient.getBalance({ address: stack.devnet.solver.address }),
    };
  }

  /** Asserts the refund of one deposit, to the wei: what the user got back, what stayed, who paid gas. */
  async function expectRefunded(args: {
    requestId: string;
    chainClient: EvmChainClient;
    currency: Address;
    user: Address;
    userBefore: bigint;
    /** The user's deposit on the refund chain: its gas is part of the user's balance change in native refunds. */
    depositTx?: Hex;
    deposited: bigint;
    depositoryBefore: bigint;
    solverBefore: bigint;
    refundsRequest?: boolean;
  }) {
    if (args.currency === zeroAddress && !args.depositTx)
      throw new Error("a native refund is checked against the deposit's gas: pass depositTx");
    const userSpentGas = args.currency === zeroAddress ? await gasPaid(args.chainClient, args.depositTx!) : 0n;
    const refund = await waitFor(
      async () =>
        (await refundsOf(args.requestId)).find(
          (r) => BigInt(r.deposited) === args.deposited && r.currency === args.currency.toLowerCase(),
        ),
      (r) => r?.status === "confirmed",
      "a confirmed refund",
    );
    const amount = BigInt(refund.amount);
    const gasCharge = BigInt(refund.gas_cost);
    expect(amount + gasCharge).toBe(args.deposited);
    expect(gasCharge).toBeGreaterThan(0n);
    const refundGas = await gasPaid(args.chainClient, refund.tx_hash);
    const receipt = await args.chainClient.publicClient.getTransactionReceipt({ hash: refund.tx_hash });
    expect(receipt.gasUsed).toBeLessThanOrEqual(
      args.currency === zeroAddress ? GAS_ESTIMATES.withdrawNative : GAS_ESTIMATES.withdrawErc20,
    );
    expect(await args.chainClient.balanceOf(args.user, args.currency)).toBe(
      args.userBefore - userSpentGas - args.deposited + amount,
    );
    const depository = args.chainClient.chain.depository as Address;
    expect(await args.chainClient.balanceOf(depository, args.currency)).toBe(args.depositoryBefore + gasCharge);
    const solver = stack.devnet.solver.address;
    const solverNow = await args.chainClient.publicClient.getBalance({ address: solver });
    expect(solverNow).toBe(args.solverBefore - refundGas);
    return refund;
  }

  return { events, refundsOf, gasPaid, waitFor, balancesBefore, expectRefunded };
}
