import { randomBytes } from "node:crypto";
import { type Address, type Hex, erc20Abi } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { depositoryAbi } from "../contracts/abis.js";
import { devnetWalletClient } from "../devnet/devnetWalletClient.js";
import { setChainSwitch } from "../schema/chainSwitches.js";
import { fundSponsor, sponsorBalance } from "../schema/sponsorLedger.js";
import { withTransaction } from "../schema/withTransaction.js";
import { createApiKey } from "../src/apiKeys/createApiKey.js";
import { createEvmChainClient } from "../src/chains/evm/evmChainClient.js";
import { pollStatus } from "./support/pollStatus.js";
import { route } from "./support/route.js";
import { TEST_PRICES, type TestStack, startTestStack } from "./support/startTestStack.js";

const USDC = 1_000_000n;

/**
 * Attacks through the public API that pay a quote with more than it asked for: an overpaid sponsored quote must not
 * turn the sponsor's balance into claimable app fees, and an overpaid quote must not fill at the quoted rate past the
 * tolerance or past the chain's limit.
 */
describe("overpayment, end to end: paying more than quoted buys nothing at the quote's terms", () => {
  let stack: TestStack;
  let attackerKey: string;
  beforeAll(async () => {
    stack = await startTestStack();
    attackerKey = (
      await createApiKey(stack.pool, stack.serverKey, { name: "attacker", integrator: "attacker", sponsors: true })
    ).key;
    // About what the attack's 10 USDC quote needs of sponsorship.
    await withTransaction(stack.pool, (db) => fundSponsor(db, { integrator: "attacker", amountMicroUsd: 9_500_000n }));
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const setup = () => {
    const [origin, destination] = stack.devnet.chains;
    const usdcIn = origin.currencies.find((c) => c.symbol === "USDC")!.address as Address;
    const usdcOut = destination.currencies.find((c) => c.symbol === "USDC")!.address as Address;
    return {
      origin,
      destination,
      usdcIn,
      usdcOut,
      originClient: createEvmChainClient(origin),
      destinationClient: createEvmChainClient(destination),
    };
  };
  const quote = async (body: Record<string, unknown>, apiKey?: string) => {
    const response = await fetch(`${stack.api.url}/quote/v2`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(apiKey ? { "x-api-key": apiKey } : {}) },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  /** Deposits `amount` of USDC for the quote's order, whatever the quote asked for. */
  const depositUsdc = async (account: (typeof stack.devnet.accounts)[number], quoted: any, amount: bigint) => {
    const { origin, usdcIn, originClient } = setup();
    const wallet = devnetWalletClient({ rpcUrl: origin.rpcUrl, chainId: origin.id, privateKey: account.privateKey });
    const wait = (hash: Hex) => originClient.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    await wait(
      await wallet.writeContract({
        address: usdcIn,
        abi: erc20Abi,
        functionName: "approve",
        args: [origin.depository as Address, amount],
      }),
    );
    await wait(
      await wallet.writeContract({
        address: origin.depository as Address,
        abi: depositoryAbi,
        functionName: "depositErc20",
        args: [account.address as Address, usdcIn, amount, quoted.protocol.v2.orderId as Hex],
      }),
    );
  };
  const claimable = async (wallet: string): Promise<bigint> => {
    const body = (await (await fetch(`${stack.api.url}/app-fees/${wallet}/balances`)).json()) as any;
    return (body.balances ?? []).reduce((sum: bigint, b: any) => sum + BigInt(b.amount), 0n);
  };

  it("an overpaid sponsored 10 USDC quote with a 90 % app fee to the attacker earns the attacker nothing", async () => {
    const { origin, destination, usdcIn, usdcOut, originClient, destinationClient } = setup();
    const attacker = stack.devnet.accounts[2];
    const recipient = `0x${randomBytes(20).toString("hex")}` as Address;
    const appFeeWallet = `0x${randomBytes(20).toString("hex")}` as Address;
    const body = {
      user: attacker.address,
      recipient,
      ...route(origin, destination, usdcIn, usdcOut),
      amount: (10n * USDC).toString(),
      tradeType: "EXACT_INPUT",
      subsidizeFees: true,
      appFees: [{ recipient: appFeeWallet, fee: "9000" }],
    };
    // Sponsoring the app bucket itself is capped: 90 % is refused.
    const withApp = await quote({ ...body, sponsoredFeeComponents: ["execution", "relay", "app"] }, attackerKey);
    expect(withApp).toMatchObject({ status: 400, body: { errorCode: "INVALID_INPUT" } });

    const sponsored = await quote(body, attackerKey);
    expect(sponsored.status).toBe(200);
    const agreed = BigInt(sponsored.body.fees.subsidized.amount);
    const userBefore = await originClient.balanceOf(attacker.address, usdcIn);
    const sponsorBefore = await sponsorBalance(stack.pool, "attacker");

    await depositUsdc(attacker, sponsored.body, 500n * USDC);
    const { last } = await pollStatus(stack.api.url, sponsored.body.requestId, { until: ["success", "refund"] });
    // Refunded whole: the sponsor agreed to the fees of 10 USDC, not of whatever is paid.
    expect(last).toMatchObject({ status: "refund", failReason: "INCORRECT_PAYMENT" });

    // What a 10 USDC deposit earns under the cap (100 bps by default) is the most the attacker's fees may be.
    const earned = await claimable(appFeeWallet);
    expect(earned).toBeLessThanOrEqual((10n * USDC * 100n) / 10_000n);
    // The sponsor is never charged for more than it agreed to.
    const charged = sponsorBefore - (await sponsorBalance(stack.pool, "attacker"));
    expect(charged).toBeLessThanOrEqual(agreed);
    // The excess goes back to the depositor: of the 500 USDC, at most the quoted 10 USDC stays paid.
    if (last.status === "refund") {
      const refundStatus = async () =>
        (
          await stack.pool.query("SELECT status FROM crossfill.refunds WHERE request_id = $1", [
            sponsored.body.requestId,
          ])
        ).rows;
      await expect.poll(refundStatus, { timeout: 20_000 }).toEqual([{ status: "confirmed" }]);
    }
    const userPaid = userBefore - (await originClient.balanceOf(attacker.address, usdcIn));
    expect(userPaid).toBeLessThanOrEqual(10n * USDC);
    // All told, the attacker (depositor, recipient, fee wallet and sponsor at once) gains nothing.
    const received = await destinationClient.balanceOf(recipient, usdcOut);
    expect(received + earned - userPaid - charged).toBeLessThanOrEqual(0n);
  });
});

describe("overpayment past the tolerance, end to end: re-priced at today's prices, refunded past the chain's limit", () => {
  let stack: TestStack;
  beforeAll(async () => {
    // ETH fell from the quote's 3000 USD to 2900 by the time the deposits arrive.
    stack = await startTestStack({ workerPrices: { ...TEST_PRICES, ETH: "2900", WETH: "2900" } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const ETH = 10n ** 18n;
  const setup = () => {
    const [origin, destination] = stack.devnet.chains;
    const usdcOut = destination.currencies.find((c) => c.symbol === "USDC")!.address as Address;
    return { origin, destination, usdcOut, destinationClient: createEvmChainClient(destination) };
  };
  /** An ETH → USDC quote of 0.01 ETH, paid with `paid` instead; the request's last status and what arrived. */
  const quoteAndPay = async (paid: bigint, beforePaying?: (quote: any) => Promise<void>) => {
    const { origin, destination, usdcOut, destinationClient } = setup();
    const user = stack.devnet.accounts[3];
    const recipient = `0x${randomBytes(20).toString("hex")}` as Address;
    const response = await fetch(`${stack.api.url}/quote/v2`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        user: user.address,
        recipient,
        ...route(origin, destination, undefined, usdcOut),
        amount: (ETH / 100n).toString(),
        tradeType: "EXACT_INPUT",
      }),
    });
    const quote = (await response.json()) as any;
    expect(response.status).toBe(200);
    await beforePaying?.(quote);
    const wallet = devnetWalletClient({ rpcUrl: origin.rpcUrl, chainId: origin.id, privateKey: user.privateKey });
    const item = quote.steps.at(-1).items[0].data;
    const hash = await wallet.sendTransaction({ to: item.to, data: item.data, value: paid });
    await createEvmChainClient(origin).publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    const { last } = await pollStatus(stack.api.url, quote.requestId, { until: ["success", "refund"] });
    return { quote, last, received: await destinationClient.balanceOf(recipient, usdcOut) };
  };

  it("fills within the tolerance at the quoted rate", async () => {
    // 1 % over the quoted 0.01 ETH: the quote's rate still holds.
    const { quote, last, received } = await quoteAndPay(((ETH / 100n) * 101n) / 100n);
    expect(last.status).toBe("success");
    expect(received).toBe((BigInt(quote.details.currencyOut.amount) * 101n) / 100n);
  });

  it("does not fill a 100x overpayment at the quoted rate: re-priced at today's price or refunded", async () => {
    const { last, received } = await quoteAndPay(ETH);
    // 1 ETH is worth 2900 USDC now; the quote's rate (3000) would pay ~2985.
    expect(received).toBeLessThanOrEqual(2900n * USDC);
    // Today's price is more than the quote's 0.5 % slippage below the quoted rate: the whole deposit goes back.
    expect(last).toMatchObject({ status: "refund", failReason: "SLIPPAGE" });
  });

  it("refunds an overpayment above the chain's USD limit, judged on what was paid", async () => {
    const { origin } = setup();
    try {
      const { last, received } = await quoteAndPay(ETH / 10n, () =>
        // The operator limits the chain to 100 USD after the 30 USD quote: the 290 USD deposit is over it.
        setChainSwitch(stack.pool, origin.id, { partialDisableLimitUsd: "100" }).then(() => undefined),
      );
      expect(last).toMatchObject({ status: "refund", failReason: "SOLVER_CAPACITY_EXCEEDED" });
      expect(received).toBe(0n);
    } finally {
      await setChainSwitch(stack.pool, origin.id, { partialDisableLimitUsd: null });
    }
  });
});
