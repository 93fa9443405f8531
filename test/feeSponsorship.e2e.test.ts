import { randomBytes } from "node:crypto";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { postGraphql } from "./support/postGraphql.js";
import { fundSponsor, getSponsorDraw, sponsorBalance } from "../schema/sponsorLedger.js";
import { withTransaction } from "../schema/withTransaction.js";
import { createApiKey } from "../src/apiKeys/createApiKey.js";
import { createEvmChainClient } from "../src/chains/evm/evmChainClient.js";
import { pollStatus } from "./support/pollStatus.js";
import { route } from "./support/route.js";
import { sendSteps } from "./support/sendSteps.js";
import { type TestStack, startTestStack } from "./support/startTestStack.js";

describe("fee sponsorship, end to end: the quoting key's integrator pays the user's fees from its balance", () => {
  let stack: TestStack;
  let key: string;
  let brokeKey: string;
  let plainKey: string;
  beforeAll(async () => {
    stack = await startTestStack();
    key = (await createApiKey(stack.pool, stack.serverKey, { name: "acme", integrator: "acme", sponsors: true })).key;
    brokeKey = (await createApiKey(stack.pool, stack.serverKey, { name: "broke", integrator: "broke", sponsors: true }))
      .key;
    // Funded, but never allowed to sponsor by the operator.
    plainKey = (await createApiKey(stack.pool, stack.serverKey, { name: "plain", integrator: "plain" })).key;
    await withTransaction(stack.pool, (db) => fundSponsor(db, { integrator: "acme", amountMicroUsd: 5_000_000n }));
    await withTransaction(stack.pool, (db) => fundSponsor(db, { integrator: "plain", amountMicroUsd: 5_000_000n }));
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const tokens = () => {
    const [origin, destination] = stack.devnet.chains;
    const token = (chain: typeof origin, symbol: string) =>
      chain.currencies.find((c) => c.symbol === symbol)!.address as Address;
    return { origin, destination, usdc: token(origin, "USDC"), weth: token(destination, "WETH") };
  };
  // null: no key (undefined would take the default).
  const quote = async (extra: Record<string, unknown>, apiKey: string | null = key) => {
    const { origin, destination, usdc, weth } = tokens();
    const response = await fetch(`${stack.api.url}/quote/v2`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(apiKey ? { "x-api-key": apiKey } : {}) },
      body: JSON.stringify({
        user: stack.devnet.accounts[1].address,
        recipient: stack.devnet.accounts[4].address,
        ...route(origin, destination, usdc, weth),
        amount: "100000000",
        tradeType: "EXACT_INPUT",
        ...extra,
      }),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const fill = async (body: any) => {
    const { origin } = tokens();
    await sendSteps(body, stack.devnet.accounts[1], origin);
    return pollStatus(stack.api.url, body.requestId, { until: ["success", "refund"] });
  };

  it("refuses every combination the rules leave out with 400, writing nothing", async () => {
    const { origin, destination } = tokens();
    const bridge = {
      ...route(origin, destination, tokens().usdc, destination.currencies.find((c) => c.symbol === "USDC")!.address),
    };
    const cases: Array<[Record<string, unknown>, string | null, string]> = [
      [{ subsidizeFees: true }, null, "INVALID_INPUT"],
      [{ subsidizationBps: 5000 }, key, "INVALID_INPUT"],
      [{ maxSubsidizationAmount: "1000" }, key, "INVALID_INPUT"],
      [{ sponsoredFeeComponents: ["execution"] }, key, "INVALID_INPUT"],
      [{ subsidizeFees: true, sponsoredFeeComponents: ["gas"] }, key, "INVALID_INPUT"],
      [{ subsidizeFees: true, subsidizationBps: 10001 }, key, "INVALID_INPUT"],
      [{ subsidizeFees: true, subsidizationBps: 5000, ...bridge }, key, "INVALID_INPUT"],
      [{ subsidizeFees: true, maxSubsidizationAmount: "-1" }, key, "INVALID_INPUT"],
      [{ subsidizeFees: true }, brokeKey, "SPONSOR_BALANCE_TOO_LOW"],
    ];
    const { rows } = await stack.pool.query("SELECT count(*)::int AS n FROM crossfill.requests");
    for (const [extra, apiKey, errorCode] of cases) {
      const answer = await quote(extra, apiKey);
      expect({ extra, status: answer.status, errorCode: answer.body.errorCode }).toEqual({
        extra,
        status: 400,
        errorCode,
      });
    }
    // A key the operator has not allowed to sponsor is refused whatever its integrator's balance.
    expect(await quote({ subsidizeFees: true }, plainKey)).toMatchObject({
      status: 403,
      body: { errorCode: "FORBIDDEN" },
    });
    expect((await stack.pool.query("SELECT count(*)::int AS n FROM crossfill.requests")).rows[0].n).toBe(rows[0].n);
  });

  it("sponsors a swap's fees in full under a cap it does not hit: the user pays nothing but the input", async () => {
    const { destination, weth } = tokens();
    const plain = (await quote({})).body;
    const sponsored = await quote({ subsidizeFees: true, maxSubsidizationAmount: "1000000" });
    expect(sponsored.status).toBe(200);
    const fees = BigInt(plain.fees.relayer.amount);
    const { feeSponsorship } = sponsored.body;
    expect(sponsored.body.fees.subsidized.amount).toBe(fees.toString());
    expect(feeSponsorship.quoted).toMatchObject({
      selectedComponents: ["execution", "swap", "relay"],
      capHit: false,
      maxSubsidizationAmount: "1000000",
      subsidizationBps: 10000,
      sponsoredTotal: { amount: fees.toString() },
      userPaysTotal: { amount: "0" },
      components: {
        rent: { selected: false },
        app: { selected: false },
        relay: { selected: true, userPays: { amount: "0" } },
      },
    });
    // 100 USDC at 3000 USD/WETH, nothing taken
    expect(sponsored.body.details.currencyOut.amount).toBe(((100n * 10n ** 18n) / 3000n).toString());
    expect(BigInt(sponsored.body.details.expandedPriceImpact.sponsored.usd.replace(".", ""))).toBeGreaterThan(0n);

    const destinationClient = createEvmChainClient(destination);
    const recipient = stack.devnet.accounts[4].address;
    const before = await destinationClient.balanceOf(recipient, weth);
    const balanceBefore = await sponsorBalance(stack.pool, "acme");
    expect((await fill(sponsored.body)).last.status).toBe("success");
    expect(await destinationClient.balanceOf(recipient, weth)).toBe(
      before + BigInt(sponsored.body.details.currencyOut.amount),
    );
    // USDC is 1 USD: the sponsor is charged the fees' units as micro-USD.
    expect(await sponsorBalance(stack.pool, "acme")).toBe(balanceBefore - fees);

    const record = await fetch(`${stack.api.url}/requests/v3?id=${sponsored.body.requestId}`, {
      headers: { "x-api-key": key },
    }).then((response) => response.json() as Promise<any>);
    const actual = record.requests[0].data.feeSponsorship.actual;
    expect(actual.sponsorPayment).toEqual({
      amount: fees.toString(),
      address: tokens().usdc,
      chainId: tokens().origin.id,
    });
    expect(actual.selectedComponents).toEqual(["execution", "swap", "platform"]);
    // Marked sponsored; the sponsored fee is the sponsored total in the fee currency; the actual execution fee is
    // the gas the fill paid, at the quote's rate for its gas; the actual components add up to what the user gave.
    const listed = record.requests[0];
    expect(listed.features).toContain("sponsored");
    expect(listed.data.fees.quoted.sponsored.amount).toBe(fees.toString());
    expect(listed.data.fees.actual.sponsored.amount).toBe(fees.toString());
    const { rows } = await stack.pool.query(
      "SELECT quote->'fillGas'->>'amount' AS gas FROM crossfill.requests WHERE id = $1",
      [sponsored.body.requestId],
    );
    const gasPaid = BigInt(listed.data.outTxs[0].fee);
    expect(gasPaid).toBeGreaterThan(0n);
    expect(listed.data.fees.actual.execution.amount).toBe(
      (-((gasPaid * BigInt(sponsored.body.fees.relayerGas.amount)) / BigInt(rows[0].gas))).toString(),
    );
    const paid = Object.values(listed.data.fees.actual as Record<string, { amount: string }>).reduce(
      (sum, component) => sum + BigInt(component.amount),
      0n,
    );
    const deposited = BigInt(listed.data.route.actual.origin.inputCurrency.amount);
    // Fully sponsored: the user's input bought its full worth of output, so the components net to nothing.
    expect(deposited).toBe(BigInt(sponsored.body.details.currencyIn.amount));
    expect(paid).toBe(0n);
    const graphql = await postGraphql(
      stack.api.url,
      `query ($id: String!) { request(id: $id) { features fees { actual { execution { amount } sponsored { amount } } } } }`,
      { id: sponsored.body.requestId },
    );
    expect(graphql.data.request).toEqual({
      features: listed.features,
      fees: {
        actual: {
          execution: { amount: listed.data.fees.actual.execution.amount },
          sponsored: { amount: fees.toString() },
        },
      },
    });
    const quoteData = await fetch(`${stack.api.url}/integrators/quote-data?requestId=${sponsored.body.requestId}`, {
      headers: { "x-api-key": key },
    }).then((response) => response.json() as Promise<any>);
    expect(quoteData.feeSponsorship.quoted.sponsoredTotal.amount).toBe(fees.toString());
  });

  it("stops at a cap that is hit, and shares each bucket by subsidizationBps on a swap", async () => {
    const plain = (await quote({})).body;
    const capped = (await quote({ subsidizeFees: true, maxSubsidizationAmount: "10000" })).body;
    expect(capped.feeSponsorship.quoted).toMatchObject({
      capHit: true,
      sponsoredTotal: { amount: "10000" },
      userPaysTotal: { amount: (BigInt(plain.fees.relayer.amount) - 10_000n).toString() },
    });
    expect(BigInt(capped.details.currencyOut.amount)).toBeGreaterThan(BigInt(plain.details.currencyOut.amount));
    const half = (await quote({ subsidizeFees: true, subsidizationBps: 5000 })).body;
    const { execution, relay } = half.feeSponsorship.quoted.components;
    expect(execution.sponsored.amount).toBe((BigInt(plain.fees.relayerGas.amount) / 2n).toString());
    expect(relay.sponsored.amount).toBe((BigInt(plain.fees.relayerService.amount) / 2n).toString());
    expect(half.feeSponsorship.quoted.subsidizationBps).toBe(5000);
  });

  it.each([
    ["without a cap", undefined],
    ["with a cap inside the app bucket", 700_000n],
  ] as const)(
    "pays a sponsored app fee while its recipients earn it in full, the ledger agreeing to the wei, %s",
    async (_, appShareUnderCap) => {
      const { origin, destination, usdc, weth } = tokens();
      await withTransaction(stack.pool, (db) => fundSponsor(db, { integrator: "acme", amountMicroUsd: 3_000_000n }));
      const appA = `0x${randomBytes(20).toString("hex")}`;
      const appB = `0x${randomBytes(20).toString("hex")}`;
      const appFees = [
        { recipient: appA, fee: "60" },
        { recipient: appB, fee: "40" },
      ];
      // 0.6 % and 0.4 % of 100 USDC (the 100 bps a sponsored app bucket may carry): what the recipients earn,
      // sponsored or not. The app bucket is sponsored only when named.
      const earned = { [appA]: 600_000n, [appB]: 400_000n };
      const sponsoredFeeComponents = ["execution", "swap", "relay", "app"];
      let cap: string | undefined;
      if (appShareUnderCap !== undefined) {
        // Execution and the service's fee fit under the cap; of the app bucket only `appShareUnderCap` does.
        const { components } = (await quote({ subsidizeFees: true, sponsoredFeeComponents, appFees })).body
          .feeSponsorship.quoted;
        const before = BigInt(components.execution.total.amount) + BigInt(components.relay.total.amount);
        cap = (before + appShareUnderCap).toString(); // USDC is 1 USD: units are micro-USD
      }
      const sponsored = await quote({
        subsidizeFees: true,
        sponsoredFeeComponents,
        appFees,
        ...(cap === undefined ? {} : { maxSubsidizationAmount: cap }),
      });
      expect(sponsored.status).toBe(200);
      const { quoted } = sponsored.body.feeSponsorship;
      const app = quoted.components.app;
      expect(app.total.amount).toBe("1000000");
      expect(quoted.capHit).toBe(cap !== undefined);
      const appSponsored = BigInt(app.sponsored.amount);
      if (appShareUnderCap === undefined) expect(appSponsored).toBe(1_000_000n);
      else {
        expect(appSponsored).toBe(
          BigInt(cap!) -
            BigInt(quoted.components.execution.sponsored.amount) -
            BigInt(quoted.components.relay.sponsored.amount),
        );
        expect(appSponsored).toBeLessThan(1_000_000n);
      }
      expect(BigInt(app.userPays.amount)).toBe(1_000_000n - appSponsored);

      const originClient = createEvmChainClient(origin);
      const destinationClient = createEvmChainClient(destination);
      const user = stack.devnet.accounts[1].address;
      const recipient = stack.devnet.accounts[4].address;
      const depository = origin.depository as Address;
      const userBefore = await originClient.balanceOf(user, usdc);
      const depositoryBefore = await originClient.balanceOf(depository, usdc);
      const recipientBefore = await destinationClient.balanceOf(recipient, weth);
      const sponsorBefore = await sponsorBalance(stack.pool, "acme");
      expect((await fill(sponsored.body)).last.status).toBe("success");

      // The user pays the input and nothing else; the recipient gets the quoted output, the sponsored fees included.
      expect(await originClient.balanceOf(user, usdc)).toBe(userBefore - 100_000_000n);
      expect(await originClient.balanceOf(depository, usdc)).toBe(depositoryBefore + 100_000_000n);
      expect(await destinationClient.balanceOf(recipient, weth)).toBe(
        recipientBefore + BigInt(sponsored.body.details.currencyOut.amount),
      );
      // The recipients earn their whole share out of the deposit in the Depository…
      const earnings = async () =>
        (
          await stack.pool.query(
            "SELECT recipient, amount::text FROM crossfill.app_fee_earnings WHERE request_id = $1",
            [sponsored.body.requestId],
          )
        ).rows;
      await vi.waitFor(async () => expect(await earnings()).toHaveLength(2), { timeout: 10_000 });
      const byRecipient = Object.fromEntries((await earnings()).map((row) => [row.recipient, BigInt(row.amount)]));
      expect(byRecipient).toEqual(earned);
      // …and the sponsor pays the app bucket's sponsored part: its draw holds it to the unit, beside the others.
      const draw = await getSponsorDraw(stack.pool, sponsored.body.requestId);
      expect(draw?.payment).toEqual({
        chainId: origin.id,
        currency: usdc.toLowerCase(),
        amount: BigInt(quoted.sponsoredTotal.amount),
        components: Object.fromEntries(
          Object.entries(quoted.components).map(([name, c]: [string, any]) => [name, BigInt(c.sponsored.amount)]),
        ),
      });
      expect(draw!.payment!.components.app).toBe(appSponsored);
      // Earned = what the sponsor paid of the app fees + what the user paid of them.
      expect(byRecipient[appA] + byRecipient[appB]).toBe(draw!.payment!.components.app + BigInt(app.userPays.amount));
      // USDC is 1 USD: the balance moved by the draw's USD, which is its amount in units.
      expect(draw!.amountMicroUsd).toBe(draw!.payment!.amount);
      expect(await sponsorBalance(stack.pool, "acme")).toBe(sponsorBefore - draw!.amountMicroUsd);
      // v3's sponsorPayment says the same amount.
      const record = await fetch(`${stack.api.url}/requests/v3?id=${sponsored.body.requestId}`, {
        headers: { "x-api-key": key },
      }).then((response) => response.json() as Promise<any>);
      expect(BigInt(record.requests[0].data.feeSponsorship.actual.sponsorPayment.amount)).toBe(draw!.payment!.amount);
    },
  );

  it("fails a fill the sponsor can no longer cover with SPONSOR_BALANCE_TOO_LOW and refunds it", async () => {
    const sponsored = (await quote({ subsidizeFees: true })).body;
    const left = await sponsorBalance(stack.pool, "acme");
    await withTransaction(stack.pool, (db) => fundSponsor(db, { integrator: "acme", amountMicroUsd: -left }));
    const { statuses, last } = await fill(sponsored);
    expect(last).toMatchObject({ status: "refund", failReason: "SPONSOR_BALANCE_TOO_LOW" });
    expect(statuses).not.toContain("submitted");
    expect(await sponsorBalance(stack.pool, "acme")).toBe(0n);
    expect((await quote({ subsidizeFees: true })).body.errorCode).toBe("SPONSOR_BALANCE_TOO_LOW");
  });
});
