import { zeroAddress } from "viem";
import { expect } from "vitest";
import { QUEUES } from "../../jobs/queues.js";
import { createApiKey } from "../../src/apiKeys/createApiKey.js";
import { createEvmChainClient } from "../../src/chains/evm/evmChainClient.js";
import { pollStatus } from "./pollStatus.js";
import { postQuote } from "./postQuote.js";
import { refundChecks } from "./refundChecks.js";
import { sendSteps } from "./sendSteps.js";
import type { TestStack } from "./startTestStack.js";

/** The 0.1 ETH every family's fill case bridges from the first EVM devnet chain. */
const DEPOSIT = 10n ** 17n;

/** A fill as the shared case saw it land, for the family's own checks on its chain. */
export type LandedFill = {
  txHash: string;
  requestId: string;
  orderId: string;
  recipient: string;
  amountOut: bigint;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the quote's JSON as the API answered it
  quote: any;
};

/** What differs between the families' fills from an EVM origin: their chain, their balances, how a payment settles. */
export type FillFamily = {
  stack: () => TestStack;
  chainId: () => number;
  /** The currency the fill pays on the family's chain. */
  currency: string;
  /** A wallet of the family's chain to pay, and the solver's. */
  recipient: () => string;
  solver: () => string;
  /** How the family compares two spellings of an address (hex is case-blind, base58 and bech32 are not); default as is. */
  addressKey?(address: string): string;
  /** What `owner` holds of `currency` on the family's chain. */
  balance(owner: string): Promise<bigint>;
  /** The bounds of 0.1 ETH's output at the test prices ($3,000 an ETH), fees taken. */
  amountOut: { above: bigint; below: bigint };
  /** Once the fill is submitted: moves the chain so it settles (mines its block, or nothing where time finalizes it). */
  settle(requestId: string): Promise<void>;
  /**
   * The hash the chain knows the fill attempt `attemptTxHash` by, where it is not the attempt's own (the exchange's
   * ledger names a transfer once it commits it; the attempt holds the solver and nonce it was signed for).
   */
  chainTxHash?(attemptTxHash: string): Promise<string>;
  /** What the solver paid for the fill `txHash` beside its output: the network fee, an account's activation. */
  solverCost(txHash: string): Promise<bigint>;
  /** The family's own checks of the landed fill on its chain: what it pays, what it names. */
  checkFill(fill: LandedFill): Promise<void>;
};

/**
 * EVM → the family, end to end, on any family: 0.1 ETH quoted and deposited (the user out exactly it and its gas), the
 * fill job run twice more while the first may still be signing, `success` once the family's chain settles the fill,
 * with the recorded status sequence; one fill attempt, its hash in the status, the applied fill and the v3 record; the
 * recipient paid the quoted output and the solver out it and the fill's cost, to the unit.
 */
export async function evmToFamilyFillCase(family: FillFamily): Promise<LandedFill> {
  const stack = family.stack();
  const origin = stack.devnet.chains[0];
  const user = stack.devnet.accounts[0];
  const evm = createEvmChainClient(origin).publicClient;
  const [recipient, solver] = [family.recipient(), family.solver()];
  const [recipientBefore, solverBefore] = [await family.balance(recipient), await family.balance(solver)];
  const response = await postQuote(stack.api.url, {
    user: user.address,
    originChainId: origin.id,
    destinationChainId: family.chainId(),
    originCurrency: zeroAddress,
    destinationCurrency: family.currency,
    amount: DEPOSIT.toString(),
    tradeType: "EXACT_INPUT",
    recipient,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  const requestId: string = response.body.steps.at(-1).requestId;
  const amountOut = BigInt(response.body.details.currencyOut.amount);
  expect(amountOut).toBeGreaterThan(family.amountOut.above);
  expect(amountOut).toBeLessThan(family.amountOut.below);

  const userBefore = await evm.getBalance({ address: user.address });
  const submitted = pollStatus(stack.api.url, requestId, { until: ["submitted", "success"], timeoutMs: 60_000 });
  const { deposit } = await sendSteps(response.body, user, origin);
  const receipt = await evm.getTransactionReceipt({ hash: deposit! });
  expect(await evm.getBalance({ address: user.address })).toBe(
    userBefore - DEPOSIT - receipt.gasUsed * receipt.effectiveGasPrice,
  );
  // The fill job run again (a retry, a second worker) while the first may still be signing: one payment.
  const fillQueue = stack.queues.createQueue<{ requestId: string }>(QUEUES.fill);
  for (const run of [1, 2]) await fillQueue.add("fill", { requestId }, { jobId: `again-${requestId}-${run}` });
  await submitted;
  await family.settle(requestId);
  const { last } = await pollStatus(stack.api.url, requestId, { timeoutMs: 60_000 });
  expect(last.status).toBe("success");
  // The recorded sequence, not the polled one: a poll can miss a status that lasted less than its interval.
  expect(await refundChecks(stack).events(requestId)).toEqual(["waiting", "pending", "submitted", "success"]);

  const attempts = await stack.pool.query<{ tx_hash: string; currency: string; recipient: string }>(
    "SELECT tx_hash, currency, recipient FROM crossfill.fill_attempts WHERE request_id = $1",
    [requestId],
  );
  expect(attempts.rows).toHaveLength(1);
  const key = family.addressKey ?? ((address: string) => address);
  const txHash = (await family.chainTxHash?.(attempts.rows[0]!.tx_hash)) ?? attempts.rows[0]!.tx_hash;
  // As the family spells them: a base58 key or a bech32 address keeps its case everywhere, hex is case-blind.
  expect(attempts.rows[0]!.currency).toBe(family.currency);
  expect(key(attempts.rows[0]!.recipient)).toBe(key(recipient));
  expect(last.txHashes).toEqual([txHash]);
  const applied = async () =>
    (await stack.pool.query("SELECT tx_hash, amount FROM crossfill.request_fills WHERE request_id = $1", [requestId]))
      .rows;
  await expect.poll(applied, { timeout: 10_000 }).toEqual([{ tx_hash: txHash, amount: amountOut.toString() }]);
  const apiKey = await createApiKey(stack.pool, stack.serverKey, { name: `fill ${requestId}` });
  const listed = await fetch(`${stack.api.url}/requests/v3?id=${requestId}`, {
    headers: { "x-api-key": apiKey.key },
  }).then((r) => r.json());
  expect(listed.requests[0].status).toBe("success");
  expect(key(listed.requests[0].recipient)).toBe(key(recipient));
  expect(listed.requests[0].data.outTxs).toMatchObject([{ txHash, chainId: family.chainId() }]);

  // To the unit: the recipient got the quoted output, the solver paid it and the fill's cost, once.
  expect(await family.balance(recipient)).toBe(recipientBefore + amountOut);
  expect(await family.balance(solver)).toBe(solverBefore - amountOut - (await family.solverCost(txHash)));
  const landed = {
    txHash,
    requestId,
    orderId: response.body.protocol.v2.orderId,
    recipient,
    amountOut,
    quote: response.body,
  };
  await family.checkFill(landed);
  return landed;
}
