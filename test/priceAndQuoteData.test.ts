import { zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fundSponsor, sponsorBalance } from "../schema/sponsorLedger.js";
import { withTransaction } from "../schema/withTransaction.js";
import { type CreatedApiKey, createApiKey } from "../src/apiKeys/createApiKey.js";
import { type RestAppStack, startRestApp } from "./support/startRestApp.js";

describe("POST /price, GET /integrators/quote-data and the removed signature endpoints", () => {
  let stack: RestAppStack;
  let acme: CreatedApiKey;
  let other: CreatedApiKey;
  let body: Record<string, unknown>;
  beforeAll(async () => {
    stack = await startRestApp();
    acme = await createApiKey(stack.pool, stack.serverKey, { name: "acme", integrator: "acme", sponsors: true });
    other = await createApiKey(stack.pool, stack.serverKey, { name: "other", integrator: "other", sponsors: true });
    const [origin, destination] = stack.devnet.chains;
    body = {
      user: stack.devnet.accounts[0].address,
      originChainId: origin.id,
      destinationChainId: destination.id,
      originCurrency: zeroAddress,
      destinationCurrency: zeroAddress,
      amount: "100000000000000000",
      tradeType: "EXACT_INPUT",
    };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const post = async (path: string, payload: unknown, key?: string) => {
    const response = await fetch(`${stack.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(key ? { "x-api-key": key } : {}) },
      body: typeof payload === "string" ? payload : JSON.stringify(payload),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as any };
  };
  const get = async (path: string, key?: string) => {
    const response = await fetch(`${stack.url}${path}`, { headers: key ? { "x-api-key": key } : {} });
    return { status: response.status, body: (await response.json()) as any };
  };
  const requestCount = async () =>
    (await stack.pool.query("SELECT count(*)::int AS n FROM crossfill.requests")).rows[0].n;

  it("prices like a quote, answers {fees, feeSponsorship, details}, and stores nothing", async () => {
    const before = await requestCount();
    const price = await post("/price", { ...body, includeProtocolData: true });
    expect(price.status).toBe(200);
    expect(Object.keys(price.body).sort()).toEqual(["details", "feeSponsorship", "fees"]);
    const quote = await post("/quote/v2", body);
    expect(price.body.details.currencyOut.amount).toBe(quote.body.details.currencyOut.amount);
    expect(Object.keys(price.body.fees).sort()).toEqual(Object.keys(quote.body.fees).sort());
    expect(price.headers.get("ratelimit-policy")).toBe("10;w=1");
    expect(await requestCount()).toBe(before + 1);
  });

  it("prices a sponsored swap as the quote does, for the key's integrator, reading its balance without drawing it", async () => {
    // A swap (ETH → USDC on the destination), so subsidizationBps is allowed.
    const swap = {
      ...body,
      destinationCurrency: stack.devnet.chains[1].currencies.find((c) => c.symbol === "USDC")!.address,
    };
    const sponsoredBody = { ...swap, subsidizeFees: true, subsidizationBps: 5000, maxSubsidizationAmount: "100000" };
    // No key: no sponsor. A key whose integrator has no sponsorship left: refused as the quote refuses it.
    expect((await post("/price", sponsoredBody)).body).toMatchObject({ errorCode: "INVALID_INPUT" });
    expect((await post("/price", sponsoredBody, other.key)).body).toMatchObject({
      errorCode: "SPONSOR_BALANCE_TOO_LOW",
    });
    await withTransaction(stack.pool, (db) => fundSponsor(db, { integrator: "acme", amountMicroUsd: 1_000_000n }));
    const before = await requestCount();
    const price = await post("/price", sponsoredBody, acme.key);
    expect(price.status).toBe(200);
    const quote = await post("/quote/v2", sponsoredBody, acme.key);
    expect(quote.status).toBe(200);
    // The same pricing path: the same sponsorship, fees and output as the quote made a moment later.
    expect(price.body.feeSponsorship).toEqual(quote.body.feeSponsorship);
    expect(price.body.fees).toEqual(quote.body.fees);
    expect(price.body.details.currencyOut.amount).toBe(quote.body.details.currencyOut.amount);
    const { quoted } = price.body.feeSponsorship;
    expect(quoted).toMatchObject({ subsidizationBps: 5000, maxSubsidizationAmount: "100000" });
    expect(BigInt(quoted.sponsoredTotal.amount)).toBeGreaterThan(0n);
    expect(BigInt(price.body.fees.subsidized.amount)).toBe(BigInt(quoted.sponsoredTotal.amount));
    // Priced without the sponsorship, nothing is sponsored and the user receives less.
    const unsponsored = await post("/price", swap, acme.key);
    expect(BigInt(unsponsored.body.feeSponsorship.quoted.sponsoredTotal.amount)).toBe(0n);
    expect(BigInt(unsponsored.body.details.currencyOut.amount)).toBeLessThan(
      BigInt(price.body.details.currencyOut.amount),
    );
    expect(await requestCount()).toBe(before + 1);
    expect(await sponsorBalance(stack.pool, "acme")).toBe(1_000_000n);
  });

  it("validates /price like a quote: 400 with the quote's codes, nothing written", async () => {
    const before = await requestCount();
    expect((await post("/price", { ...body, slippageTolerance: "10001" })).body).toMatchObject({
      errorCode: "INVALID_SLIPPAGE_TOLERANCE",
    });
    expect((await post("/price", { ...body, recipient: "0x123" })).body).toMatchObject({
      errorCode: "INVALID_ADDRESS",
    });
    expect(await post("/price", "{nope")).toMatchObject({ status: 400, body: { errorCode: "INVALID_INPUT" } });
    expect((await post("/price", { ...body, includeProtocolData: "yes" })).body).toMatchObject({
      errorCode: "INVALID_INPUT",
      message: expect.stringContaining("includeProtocolData"),
    });
    expect((await post("/price", body, "cf_unknown")).status).toBe(401);
    expect(await requestCount()).toBe(before);
  });

  it("returns quote-time data with feeSponsorship to the owning integrator only", async () => {
    const quote = await post("/quote/v2", { ...body, referrer: "acme.app" }, acme.key);
    const requestId = quote.body.requestId as string;
    const answer = await get(`/integrators/quote-data?requestId=${requestId}`, acme.key);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      requestId,
      referrer: "acme.app",
      apiKeyName: "acme",
      protocol: { v2: { orderId: quote.body.protocol.v2.orderId } },
    });
    expect(answer.body.feeSponsorship).toEqual(quote.body.feeSponsorship);
    expect(answer.body.feeSponsorship.quoted.subsidizationBps).toBe(0);
    expect(answer.body.details.currencyIn).toEqual(quote.body.details.currencyIn);
    expect(await get(`/integrators/quote-data?requestId=${requestId}`, other.key)).toMatchObject({
      status: 403,
      body: { errorCode: "FORBIDDEN" },
    });
    expect(await get(`/integrators/quote-data?requestId=${requestId}`)).toMatchObject({
      status: 401,
      body: { errorCode: "UNAUTHORIZED" },
    });
    expect(await get(`/integrators/quote-data?requestId=0x${"0".repeat(64)}`, acme.key)).toMatchObject({
      status: 404,
      body: { errorCode: "REQUEST_NOT_FOUND" },
    });
    expect(await get("/integrators/quote-data?requestId=0x12", acme.key)).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/^requestId:/) },
    });
    expect(await get(`/integrators/quote-data?requestId=${requestId}&x=1`, acme.key)).toMatchObject({
      status: 400,
      body: { message: "x: unknown parameter" },
    });
    const repeated = `/integrators/quote-data?requestId=${requestId}&requestId=0x${"0".repeat(64)}`;
    expect(await get(repeated, acme.key)).toMatchObject({
      status: 400,
      body: { message: "requestId: may be given once" },
    });
    // a keyless quote belongs to no integrator
    const keyless = await post("/quote/v2", body);
    expect((await get(`/integrators/quote-data?requestId=${keyless.body.requestId}`, acme.key)).status).toBe(403);
  });

  it("answers 404 with a pointer to includeProtocolData on the removed signature endpoints", async () => {
    const id = `0x${"ab".repeat(32)}`;
    for (const path of [`/requests/${id}/signature`, `/requests/${id}/signature/v2`]) {
      const answer = await get(path);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({
        message: expect.stringContaining("includeProtocolData: true"),
        errorCode: "NOT_FOUND",
      });
    }
  });
});
