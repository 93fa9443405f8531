import { randomBytes } from "node:crypto";
import { type Address, type Hex, erc20Abi } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { depositoryAbi } from "../contracts/abis.js";
import { devnetWalletClient } from "../devnet/devnetWalletClient.js";
import { createApiKey } from "../src/apiKeys/createApiKey.js";
import { createChainRegistry } from "../src/chains/chainRegistry.js";
import { buildRequestRecordV2 } from "../src/requests/buildRequestRecordV2.js";
import { recordLookups } from "../src/requests/recordLookups.js";
import { requestViewsByIds } from "../schema/requestsQuery.js";
import { createEvmChainClient } from "../src/chains/evm/evmChainClient.js";
import { pollStatus } from "./support/pollStatus.js";
import { postQuote } from "./support/postQuote.js";
import { route } from "./support/route.js";
import { sendSteps } from "./support/sendSteps.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";

type ClaimStep = {
  id: string;
  kind: string;
  items: Array<{
    data: {
      sign: {
        domain: Record<string, unknown>;
        types: Record<string, unknown>;
        primaryType: string;
        value: Record<string, string>;
      };
      post: { endpoint: string; method: string; body: Record<string, string> };
    };
  }>;
};

describe("app fees, end to end: earned on a bridge, claimed by signature, paid from the Depository", () => {
  let stack: TestStack;
  beforeAll(async () => {
    // Refused payouts are retried after 0.5 s, 1 s and fail at the third (production: 10 s doubling, 10 attempts).
    stack = await startTestStack({ appFeeClaimRetry: { retryBaseMs: 500, maxAttempts: 3 } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const json = async (path: string, init?: RequestInit) => {
    const response = await fetch(`${stack.api.url}${path}`, {
      ...init,
      headers: { "content-type": "application/json", ...init?.headers },
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const askClaim = (wallet: string, body: Record<string, unknown>) =>
    json(`/app-fees/${wallet}/claim`, { method: "POST", body: JSON.stringify(body) });
  const sign = (account: ReturnType<typeof privateKeyToAccount>, step: ClaimStep) => {
    const { sign } = step.items[0].data;
    // The step's typed data as JSON (uint256 as decimal strings), signed as a wallet receives it.
    const typedData = { domain: sign.domain, types: sign.types, primaryType: sign.primaryType, message: sign.value };
    return account.signTypedData(typedData as Parameters<typeof account.signTypedData>[0]);
  };
  const execute = (step: ClaimStep, signature: Hex) =>
    json(`${step.items[0].data.post.endpoint}?signature=${signature}`, {
      method: "POST",
      body: JSON.stringify(step.items[0].data.post.body),
    });

  it("splits two recipients' fees out of an ERC-20 bridge and pays a claim once, to the wei", async () => {
    const [origin, destination] = stack.devnet.chains;
    const usdcIn = origin.currencies.find((c) => c.symbol === "USDC")!.address as Address;
    const usdcOut = destination.currencies.find((c) => c.symbol === "USDC")!.address as Address;
    const originClient = createEvmChainClient(origin);
    const destinationClient = createEvmChainClient(destination);
    const user = stack.devnet.accounts[1];
    const recipient = stack.devnet.accounts[2].address;
    const appA = privateKeyToAccount(generatePrivateKey());
    const appB = privateKeyToAccount(generatePrivateKey());
    const payee = privateKeyToAccount(generatePrivateKey()).address;
    const key = await createApiKey(stack.pool, stack.serverKey, { name: "fees", integrator: "fees" });

    const quote = await postQuote(stack.api.url, {
      user: user.address,
      recipient,
      ...route(origin, destination, usdcIn, usdcOut),
      amount: "250000000",
      tradeType: "EXACT_INPUT",
      appFees: [
        { recipient: appA.address, fee: "100" },
        { recipient: appB.address.toLowerCase(), fee: "33" },
      ],
    });
    expect(quote.status).toBe(200);
    // 1 % and 0.33 % of 250 USDC
    expect(quote.body.fees.app).toMatchObject({ amount: "3325000", amountUsd: "3.325" });
    expect(quote.body.details.expandedPriceImpact.app).toEqual({ usd: "-3.325" });
    const out = BigInt(quote.body.details.currencyOut.amount);
    expect(out).toBe(250_000_000n - BigInt(quote.body.fees.relayer.amount) - 3_325_000n);
    expect(quote.body.protocol.v2.orderData.fees.slice(1)).toEqual([
      expect.objectContaining({ recipient: appA.address.toLowerCase(), amount: "2500000" }),
      expect.objectContaining({ recipient: appB.address.toLowerCase(), amount: "825000" }),
    ]);
    const requestId = quote.body.requestId;

    const userBefore = await originClient.balanceOf(user.address, usdcIn);
    const recipientBefore = await destinationClient.balanceOf(recipient, usdcOut);
    await sendSteps(quote.body, user, origin);
    expect((await pollStatus(stack.api.url, requestId)).last.status).toBe("success");
    expect(await originClient.balanceOf(user.address, usdcIn)).toBe(userBefore - 250_000_000n);
    expect(await destinationClient.balanceOf(recipient, usdcOut)).toBe(recipientBefore + out);

    // The records: v2's appFees/paidAppFees (built directly: GET /requests/v2 is retired since 2026-11-24), v3's
    // appFees {quoted, actual, currency}, the feature and the filters.
    const [view] = await requestViewsByIds(stack.pool, [requestId]);
    const lookups = recordLookups(createChainRegistry(stack.devnet.chains));
    const v2 = buildRequestRecordV2(view, { ...lookups, includeAuthenticatedData: false, includeOrderData: false });
    expect(v2.data.appFees.map((fee) => fee.amount)).toEqual(["2500000", "825000"]);
    expect(v2.data.paidAppFees).toEqual([
      { recipient: appA.address, bps: "100", amount: "2500000", amountUsd: "2.5", amountUsdCurrent: "2.5" },
      { recipient: appB.address, bps: "33", amount: "825000", amountUsd: "0.825", amountUsdCurrent: "0.825" },
    ]);
    const v3 = async (query: string) =>
      (await json(`/requests/v3?${query}`, { headers: { "x-api-key": key.key } })).body.requests as any[];
    const [record] = await v3(`id=${requestId}`);
    expect(record.features).toEqual(["app_fees"]);
    expect(record.data.appFees.currency.symbol).toBe("USDC");
    expect(record.data.appFees.actual.map((fee: any) => [fee.recipient, fee.amount, fee.amountUsd])).toEqual([
      [appA.address, "2500000", "2.5"],
      [appB.address, "825000", "0.825"],
    ]);
    expect(record.data.fees.actual.app).toMatchObject({ amount: "-3325000", usd: "-3.325" });
    expect((await v3("appFeesAmountUsdMin=3.3&appFeesAmountUsdMax=3.4")).map((r) => r.id)).toContain(requestId);
    expect((await v3("appFeesAmountUsdMin=3.4")).map((r) => r.id)).not.toContain(requestId);
    expect((await v3("features=app_fees")).map((r) => r.id)).toContain(requestId);

    // Balances, to the wei: earned with the success (credited in the transaction that records the receipt's fill).
    const balancesOf = async (wallet: string) => (await json(`/app-fees/${wallet}/balances`)).body;
    expect(await balancesOf(appA.address)).toMatchObject({
      balances: [{ currency: { chainId: origin.id, symbol: "USDC" }, amount: "2500000", amountUsd: "2.5" }],
      totalBalanceUsd: 2.5,
    });
    expect((await balancesOf(appB.address)).balances.map((b: any) => b.amount)).toEqual(["825000"]);

    // Refused claims: more than earned, nothing earned, a signature by someone else.
    const over = await askClaim(appA.address, { chainId: origin.id, currency: usdcIn, amount: "2500001" });
    expect(over).toMatchObject({ status: 400, body: { errorCode: "INSUFFICIENT_FUNDS" } });
    const nothing = await askClaim(payee, { chainId: origin.id, currency: usdcIn });
    expect(nothing).toMatchObject({ status: 400, body: { errorCode: "INSUFFICIENT_FUNDS" } });
    const claim = await askClaim(appA.address, {
      chainId: origin.id,
      currency: usdcIn,
      recipient: payee,
      amount: "1000000",
    });
    expect(claim.status).toBe(200);
    const [step] = claim.body.steps as ClaimStep[];
    expect(step).toMatchObject({ id: "claim", kind: "signature" });
    const forged = await execute(step, await sign(appB, step));
    expect(forged).toMatchObject({ status: 400, body: { errorCode: "INVALID_SIGNATURE" } });
    const tampered = await json(`${step.items[0].data.post.endpoint}?signature=${await sign(appA, step)}`, {
      method: "POST",
      body: JSON.stringify({ ...step.items[0].data.post.body, recipient: appB.address }),
    });
    expect(tampered).toMatchObject({ status: 400, body: { errorCode: "INVALID_SIGNATURE" } });

    // The wallet's own signature: paid once, to the recipient it signed for; the same signature again pays nothing.
    const signature = await sign(appA, step);
    const accepted = await execute(step, signature);
    expect(accepted).toMatchObject({ status: 200, body: { status: "queued" } });
    expect(await execute(step, signature)).toMatchObject({ status: 200, body: { message: "Claim already accepted" } });
    const deadline = Date.now() + 30_000;
    let claims: any[] = [];
    while (Date.now() < deadline) {
      claims = (await json(`/app-fees/${appA.address}/claims`)).body.claims;
      if (claims[0]?.status === "paid") break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(claims).toEqual([
      expect.objectContaining({ status: "paid", amount: "1000000", recipient: payee.toLowerCase() }),
    ]);
    expect(await originClient.balanceOf(payee, usdcIn)).toBe(1_000_000n);
    expect((await balancesOf(appA.address)).balances.map((b: any) => b.amount)).toEqual(["1500000"]);

    // Two claims signed against the same balance: the second finds it spent.
    const first = (await askClaim(appA.address, { chainId: origin.id, currency: usdcIn, amount: "1000000" })).body;
    const second = (await askClaim(appA.address, { chainId: origin.id, currency: usdcIn, amount: "1000000" })).body;
    expect((await execute(first.steps[0], await sign(appA, first.steps[0]))).status).toBe(200);
    const spent = await execute(second.steps[0], await sign(appA, second.steps[0]));
    expect(spent).toMatchObject({ status: 400, body: { errorCode: "INSUFFICIENT_FUNDS" } });
    expect((await balancesOf(appA.address)).balances.map((b: any) => b.amount)).toEqual(["500000"]);
    const { rows } = await stack.pool.query(
      "SELECT count(*)::int AS n, sum(amount)::text AS total FROM crossfill.app_fee_claims WHERE wallet = lower($1)",
      [appA.address],
    );
    expect(rows[0]).toEqual({ n: 2, total: "2000000" });
  });

  it("retries a claim the Depository cannot cover, says why, fails it after the limit and frees its amount", async () => {
    const [origin, destination] = stack.devnet.chains;
    const usdcIn = origin.currencies.find((c) => c.symbol === "USDC")!.address as Address;
    const usdcOut = destination.currencies.find((c) => c.symbol === "USDC")!.address as Address;
    const originClient = createEvmChainClient(origin);
    const user = stack.devnet.accounts[1];
    const app = privateKeyToAccount(generatePrivateKey());
    const payee = privateKeyToAccount(generatePrivateKey()).address;
    const quote = await postQuote(stack.api.url, {
      user: user.address,
      ...route(origin, destination, usdcIn, usdcOut),
      amount: "100000000",
      tradeType: "EXACT_INPUT",
      appFees: [{ recipient: app.address, fee: "100" }],
    });
    expect(quote.status).toBe(200);
    await sendSteps(quote.body, user, origin);
    expect((await pollStatus(stack.api.url, quote.body.requestId)).last.status).toBe("success");
    const balances = async () =>
      (await json(`/app-fees/${app.address}/balances`)).body.balances.map((b: any) => b.amount);
    await vi.waitFor(async () => expect(await balances()).toEqual(["1000000"]), { timeout: 10_000 });

    // The Depository's USDC leaves (its owner withdraws it to a holder): no claim on it can be paid.
    const depository = origin.depository as Address;
    const holder = stack.devnet.accounts[0];
    const held = await originClient.balanceOf(depository, usdcIn);
    const solverWallet = devnetWalletClient({
      rpcUrl: origin.rpcUrl,
      chainId: origin.id,
      privateKey: stack.devnet.solver.privateKey,
    });
    await originClient.publicClient.waitForTransactionReceipt({
      hash: await solverWallet.writeContract({
        address: depository,
        abi: depositoryAbi,
        functionName: "withdraw",
        args: [`0x${randomBytes(32).toString("hex")}`, usdcIn, holder.address, held],
      }),
      pollingInterval: 50,
    });
    expect(await originClient.balanceOf(depository, usdcIn)).toBe(0n);

    const claimAll = async () => {
      const asked = await askClaim(app.address, { chainId: origin.id, currency: usdcIn, recipient: payee });
      expect(asked.body.steps[0].items[0].data.post.body.amount).toBe("1000000");
      const [step] = asked.body.steps as ClaimStep[];
      const executed = await execute(step, await sign(app, step));
      expect(executed).toMatchObject({ status: 200, body: { status: "queued" } });
      return executed.body.claimId as string;
    };
    const refusedId = await claimAll();
    expect(await balances()).toEqual([]);
    // Seen while it waits: queued, its refused attempts, why and when it is tried next; then failed at the limit.
    const seen: any[] = [];
    await vi.waitFor(
      async () => {
        const [claim] = (await json(`/app-fees/${app.address}/claims`)).body.claims;
        seen.push(claim);
        expect(claim.status).toBe("failed");
      },
      { timeout: 30_000, interval: 50 },
    );
    const waiting = seen.find((claim) => claim.status === "queued" && claim.attempts > 0);
    expect(waiting).toMatchObject({ claimId: refusedId, reason: expect.stringMatching(/cannot pay 1000000/) });
    expect(Date.parse(waiting.nextAttemptAt)).toBeGreaterThan(0);
    const failed = seen.at(-1);
    expect(failed).toMatchObject({ claimId: refusedId, attempts: 3, nextAttemptAt: null, txHash: null });
    expect(failed.reason).toMatch(/the Depository cannot pay 1000000 of 0x[0-9a-f]{40} on chain \d+: /);
    const viaGraphql = await json("/graphql", {
      method: "POST",
      body: JSON.stringify({ query: `{ appFeeClaims(wallet: "${app.address}") { claimId status attempts reason } }` }),
    });
    expect(viaGraphql.body.data.appFeeClaims).toEqual([
      { claimId: refusedId, status: "failed", attempts: 3, reason: failed.reason },
    ]);
    // Its amount is claimable again; nothing was paid.
    expect(await balances()).toEqual(["1000000"]);
    expect(await originClient.balanceOf(payee, usdcIn)).toBe(0n);

    // Topped up, a new claim of the same earnings pays, to the wei.
    const holderWallet = devnetWalletClient({
      rpcUrl: origin.rpcUrl,
      chainId: origin.id,
      privateKey: holder.privateKey,
    });
    await originClient.publicClient.waitForTransactionReceipt({
      hash: await holderWallet.writeContract({
        address: usdcIn,
        abi: erc20Abi,
        functionName: "transfer",
        args: [depository, held],
      }),
      pollingInterval: 50,
    });
    const paidId = await claimAll();
    await vi.waitFor(
      async () => {
        const claims = (await json(`/app-fees/${app.address}/claims`)).body.claims;
        expect(claims.find((claim: any) => claim.claimId === paidId)).toMatchObject({ status: "paid", attempts: 0 });
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(await originClient.balanceOf(payee, usdcIn)).toBe(1_000_000n);
    expect(await originClient.balanceOf(depository, usdcIn)).toBe(held - 1_000_000n);
    expect(await balances()).toEqual([]);
  });
});
