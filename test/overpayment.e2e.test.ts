import { randomBytes } from "node:crypto";
import { type Address, type Hex, erc20Abi } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { depositoryAbi } from "../contracts/abis.js";
import { devnetWalletClient } from "../devnet/devnetWalletClient.js";
import { fundSponsor, sponsorBalance } from "../schema/sponsorLedger.js";
import { withTransaction } from "../schema/withTransaction.js";
import { createApiKey } from "../src/apiKeys/createApiKey.js";
import { createEvmChainClient } from "../src/chains/evm/evmChainClient.js";
import { pollStatus } from "./support/pollStatus.js";
import { route } from "./support/route.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";

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
