import { randomBytes } from "node:crypto";
import { zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CreatedApiKey, createApiKey } from "../src/apiKeys/createApiKey.js";
import { revokeApiKey } from "../schema/apiKeys.js";
import { DEFAULT_ROUTE_LIMITS } from "../src/gateway/http/routeLimits.js";
import { insertTestRequest } from "./support/insertTestRequest.js";
import { postQuote } from "./support/postQuote.js";
import { type RestAppStack, startRestApp } from "./support/startRestApp.js";

const hex32 = () => `0x${randomBytes(32).toString("hex")}`;
const ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const BOB = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const CAROL = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
const DAVE = "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65";

function storedQuote(symbolIn: string, symbolOut: string, amountUsd: string, chainIn: number, chainOut: number) {
  const currency = (symbol: string, chainId: number) => ({
    chainId,
    address: zeroAddress,
    symbol,
    name: symbol,
    decimals: 18,
    metadata: { logoURI: "", verified: true, isNative: true },
  });
  return {
    fees: {
      relayerGas: {
        currency: currency(symbolIn, chainIn),
        amount: "3",
        amountFormatted: "0.000000000000000003",
        amountUsd: "0.000001",
        minimumAmount: "3",
      },
      relayerService: {
        currency: currency(symbolIn, chainIn),
        amount: "2",
        amountFormatted: "0.000000000000000002",
        amountUsd: "0.000001",
        minimumAmount: "2",
      },
      app: {
        currency: currency(symbolIn, chainIn),
        amount: "0",
        amountFormatted: "0",
        amountUsd: "0",
        minimumAmount: "0",
      },
    },
    details: {
      currencyIn: {
        currency: currency(symbolIn, chainIn),
        amount: "1000",
        amountFormatted: "0.000000000000001",
        amountUsd,
        minimumAmount: "1000",
      },
      currencyOut: {
        currency: currency(symbolOut, chainOut),
        amount: "990",
        amountFormatted: "0.00000000000000099",
        amountUsd,
        minimumAmount: "990",
      },
      rate: "0.99",
      timeEstimate: 3,
      expandedPriceImpact: {
        swap: { usd: "0" },
        execution: { usd: "-0.000001" },
        relay: { usd: "-0.000001" },
        app: { usd: "0" },
        sponsored: { usd: "0" },
      },
    },
    feeSponsorship: {
      quoted: { selectedComponents: ["relay"], components: { relay: {} } },
      actual: { selectedComponents: [], components: {} },
    },
  };
}

describe("GET /requests/v3", () => {
  let stack: RestAppStack;
  let acme: CreatedApiKey;
  let acme2: CreatedApiKey;
  let other: CreatedApiKey;
  const ids: Record<string, string> = {};
  const hashes = { deposit: hex32(), fill: hex32(), failedFill: hex32() };

  // null sends no key at all
  const get = async (query: string, key: string | null = acme.key) => {
    const response = await fetch(`${stack.url}/requests/v3${query ? `?${query}` : ""}`, {
      headers: key ? { "x-api-key": key } : {},
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const idsOf = async (query: string, key?: string) => {
    const { status, body } = await get(query, key);
    expect(status, JSON.stringify(body)).toBe(200);
    return (body.requests as Array<{ id: string }>).map((request) => request.id);
  };
  const filters = (value: unknown) => `filters=${encodeURIComponent(JSON.stringify(value))}`;

  beforeAll(async () => {
    // Generous limits: this file is about the listing; rate limits have their own tests.
    const generous = { anonymous: 1000, standard: 1000, elevated: 1000 };
    stack = await startRestApp({
      routeLimits: { ...DEFAULT_ROUTE_LIMITS, requestsV3: { ...DEFAULT_ROUTE_LIMITS.requestsV3, ...generous } },
    });
    acme = await createApiKey(stack.pool, stack.serverKey, { name: "acme-main", integrator: "acme" });
    acme2 = await createApiKey(stack.pool, stack.serverKey, { name: "acme-second", integrator: "acme" });
    other = await createApiKey(stack.pool, stack.serverKey, { name: "other", integrator: "other" });
    const at = (request: { id: string }, minutesAgo: number, status = "waiting", extra = "") =>
      stack.pool.query(
        `UPDATE crossfill.requests SET created_at = now() - make_interval(mins => $2), updated_at = now() - make_interval(mins => $2), status = $3 ${extra} WHERE id = $1`,
        [request.id, minutesAgo, status],
      );

    // waiting, no deposit, keyless
    const waiting = await insertTestRequest(stack.pool, { quote: storedQuote("ETH", "ETH", "3", 31338, 31339) });
    await at(waiting, 50);
    // pending: deposited, not filled; made with acme's key and a referrer
    const pending = await insertTestRequest(stack.pool, {
      user: BOB,
      recipient: DAVE,
      referrer: "my.app",
      apiKeyId: acme.id,
      quote: storedQuote("ETH", "ETH", "30", 31338, 31339),
    });
    await at(pending, 40, "pending");
    await stack.pool.query(
      `INSERT INTO crossfill.request_deposits (chain_id, tx_hash, log_index, request_id, depositor, currency, amount, block_number, timestamp)
       VALUES (31338, $1, 0, $2, $3, $4, 1200, 77, 1000)`,
      [hashes.deposit, pending.id, BOB.toLowerCase(), zeroAddress],
    );
    // success: deposited and filled (fill took 12 s); other integrator's key
    const success = await insertTestRequest(stack.pool, {
      user: CAROL,
      referrer: "their.app",
      apiKeyId: other.id,
      originChainId: 31339,
      destinationChainId: 31338,
      quote: storedQuote("USDC", "usdc", "300", 31339, 31338),
    });
    await at(success, 30, "success");
    await stack.pool.query(
      `INSERT INTO crossfill.request_deposits (chain_id, tx_hash, log_index, request_id, depositor, currency, amount, block_number, timestamp)
       VALUES (31339, $1, 0, $2, $3, $4, 1000, 12, 2000)`,
      [hex32(), success.id, CAROL.toLowerCase(), zeroAddress],
    );
    await stack.pool.query(
      `INSERT INTO crossfill.request_fills (chain_id, tx_hash, log_index, request_id, amount, block_number, timestamp) VALUES (31338, $1, 0, $2, 985, 40, 2012)`,
      [hashes.fill, success.id],
    );
    // failure with a reason, and a refund with a refund fail reason
    const failure = await insertTestRequest(stack.pool, {
      referrer: "my.app",
      apiKeyId: acme2.id,
      quote: storedQuote("ETH", "USDC", "3000", 31338, 31339),
    });
    await at(failure, 20, "failure", ", fail_reason = 'SOLVER_BALANCE_TOO_LOW'");
    // its deposit was reorged out
    await stack.pool.query(
      `INSERT INTO crossfill.request_deposits (chain_id, tx_hash, log_index, request_id, depositor, currency, amount, block_number, timestamp, reorg)
       VALUES (31338, $1, 0, $2, $3, $4, 1000, 5, 500, $5)`,
      [
        hex32(),
        failure.id,
        ALICE.toLowerCase(),
        zeroAddress,
        JSON.stringify({ detectedAt: 1, source: "reconcile", reason: "block no longer canonical" }),
      ],
    );
    const refund = await insertTestRequest(stack.pool, {
      requestType: "Call",
      quote: storedQuote("ETH", "ETH", "0.5", 31338, 31339),
    });
    await at(refund, 10, "refund", ", refund_fail_reason = 'MANUAL_REFUND_REQUIRED'");
    // its fill was mined and reverted
    await stack.pool.query(
      `UPDATE crossfill.requests SET failed_tx_hash = $2, failed_tx_block_number = 77, failed_tx_timestamp = 3000, failed_tx_fee = 21000000,
              failed_call_data = $3 WHERE id = $1`,
      [refund.id, hashes.failedFill, JSON.stringify({ from: ALICE, to: CAROL, data: "0xdeadbeef", value: "5" })],
    );
    Object.assign(ids, {
      waiting: waiting.id,
      pending: pending.id,
      success: success.id,
      failure: failure.id,
      refund: refund.id,
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("needs an active key: 401 with {message, errorCode} when missing, unknown or revoked", async () => {
    for (const key of [null, "cf_unknown"]) {
      const { status, body } = await get("", key);
      expect(status).toBe(401);
      expect(body).toEqual({ message: expect.stringContaining("x-api-key"), errorCode: "UNAUTHORIZED" });
    }
    const revoked = await createApiKey(stack.pool, stack.serverKey, { name: "old", integrator: "acme" });
    expect((await get("", revoked.key)).status).toBe(200);
    await revokeApiKey(stack.pool, revoked.id);
    expect(await get("", revoked.key)).toEqual({
      status: 401,
      body: { message: "x-api-key has been revoked", errorCode: "UNAUTHORIZED" },
    });
  });

  it("lists newest first by default with every root, data and protocol field", async () => {
    const { body } = await get("");
    expect(body.requests.map((r: { id: string }) => r.id)).toEqual([
      ids.refund,
      ids.failure,
      ids.success,
      ids.pending,
      ids.waiting,
    ]);
    expect(body.continuation).toBeNull();
    expect(body).not.toHaveProperty("total");
    const record = body.requests.find((r: { id: string }) => r.id === ids.success);
    expect(Object.keys(record).sort()).toEqual(
      [
        "createdAt",
        "data",
        "depositAddress",
        "features",
        "id",
        "protocol",
        "recipient",
        "refundTo",
        "requestType",
        "sender",
        "status",
        "supersededByRequestId",
        "updatedAt",
        "user",
      ].sort(),
    );
    expect(Object.keys(record.data).sort()).toEqual(
      [
        "appFees",
        "externalMetadata",
        "failReason",
        "failedCallData",
        "failedTxBlockNumber",
        "failedTxHash",
        "feeSponsorship",
        "fees",
        "inTxs",
        "outTxs",
        "quoteOraclePrice",
        "refundCurrencyData",
        "refundFailReason",
        "route",
        "slippageTolerance",
        "timeEstimate",
        "triggeredByFastFill",
        "usesExternalLiquidity",
      ].sort(),
    );
    expect(record).toMatchObject({
      status: "success",
      user: CAROL,
      sender: CAROL,
      depositAddress: null,
      supersededByRequestId: null,
      features: [],
    });
    expect(record.data.outTxs).toEqual([
      expect.objectContaining({
        txHash: hashes.fill,
        block: 40,
        type: "onchain",
        chainId: 31338,
        timestamp: 2012,
        status: "success",
      }),
    ]);
    expect(record.data.fees.quoted.platform).toEqual({
      usd: "-0.000001",
      amount: "-2",
      amountFormatted: "-0.000000000000000002",
    });
    // Filled: 1000 deposited, 985 received of the 990 the quote gave for 995 after fees (worth 989 of the input);
    // the quote predates the fill's gas being kept, so execution stays as quoted (3), the platform takes the rest;
    // the actual USD values are at the input's quoted price (300 USD for 1000 units).
    expect(record.data.fees.actual).toEqual({
      ...record.data.fees.quoted,
      execution: { usd: "-0.9", amount: "-3", amountFormatted: "-0.000000000000000003" },
      platform: { usd: "-2.4", amount: "-8", amountFormatted: "-0.000000000000000008" },
    });
    expect(record.data.feeSponsorship.quoted.selectedComponents).toEqual(["platform"]);
    expect(record.protocol).toMatchObject({
      hubType: "onchain",
      isWithdrawable: false,
      deposit: {
        origin: { amount: "1000", chainId: 31339, depositor: CAROL.toLowerCase(), onchainId: record.protocol.orderId },
      },
      settlement: { destination: { fills: [{ chainId: 31338, transactionId: hashes.fill }], refunds: [] } },
    });
    expect(record.protocol.deposit.origin.depository).toBe(stack.devnet.chains[1].depository);
    // an indexed fill carries no metadata; one known from the solver's receipt only says so, with any disagreement
    expect(record.data.outTxs[0]).not.toHaveProperty("metadata");
    await stack.pool.query(
      `UPDATE crossfill.request_fills SET provisional = true, disagreement = '{"reason": "not indexed"}' WHERE tx_hash = $1`,
      [hashes.fill],
    );
    try {
      const [provisional] = (await get(`id=${ids.success}`)).body.requests;
      expect(provisional.data.outTxs[0]).toMatchObject({
        txHash: hashes.fill,
        metadata: { confirmedBy: "receipt", disagreement: { reason: "not indexed" } },
      });
    } finally {
      await stack.pool.query(
        "UPDATE crossfill.request_fills SET provisional = false, disagreement = NULL WHERE tx_hash = $1",
        [hashes.fill],
      );
    }
    // failReason: null on non-failure statuses, the recorded reason (else UNKNOWN) on failure and refund
    const byId = Object.fromEntries(body.requests.map((r: { id: string }) => [r.id, r]));
    expect(byId[ids.pending].data.failReason).toBeNull();
    expect(byId[ids.failure].data.failReason).toBe("SOLVER_BALANCE_TOO_LOW");
    expect(byId[ids.failure].data.inTxs[0]).toMatchObject({
      status: "failure",
      metadata: { reorg: { source: "reconcile", reason: "block no longer canonical" } },
    });
    // a reorged deposit is not an amount deposited
    expect(byId[ids.failure].data.route.actual.origin).toEqual(byId[ids.failure].data.route.quoted.origin);
    expect(byId[ids.refund].data).toMatchObject({
      failReason: "UNKNOWN",
      refundFailReason: "MANUAL_REFUND_REQUIRED",
      failedTxHash: hashes.failedFill,
    });
    // a fill mined and reverted is an outTxs entry with status failure
    expect(byId[ids.refund].data.outTxs).toEqual([
      {
        txHash: hashes.failedFill,
        fee: "21000000",
        block: 77,
        type: "onchain",
        chainId: 31339,
        timestamp: 3000,
        status: "failure",
        stateChanges: [],
        data: { from: ALICE, to: CAROL, data: "0xdeadbeef", value: "5" },
      },
    ]);
    // fees are fixed at quote time: the actual phase is there before any fill
    expect(byId[ids.waiting].data.fees.actual).toEqual(byId[ids.waiting].data.fees.quoted);
    expect(byId[ids.waiting].data.fees.actual.platform).toHaveProperty("usd");
  });

  it("applies the route's fallback rules for no deposit, deposit without fill, and fill", async () => {
    const { body } = await get("");
    const byId = Object.fromEntries(body.requests.map((r: { id: string }) => [r.id, r]));
    const waiting = byId[ids.waiting].data.route;
    expect(waiting.actual.origin).toEqual(waiting.quoted.origin);
    expect(waiting.actual.destination).toEqual(waiting.quoted.destination);
    const pending = byId[ids.pending].data.route;
    expect(pending.actual.origin.inputCurrency).toMatchObject({ amount: "1200", amountUsd: "36" });
    expect(pending.actual.origin.outputCurrency).toBeNull();
    expect(pending.actual.destination).toEqual(pending.quoted.destination);
    const success = byId[ids.success].data.route;
    expect(success.actual.origin.inputCurrency.amount).toBe("1000");
    expect(success.actual.destination.inputCurrency.amount).toBe("990");
    expect(success.actual.destination.outputCurrency.amount).toBe("985");
    expect(success.actual.rate).toBe("0.985");
    expect(success.actual.destination.router).toBe("crossfill");
  });

  it("adds authenticated-only fields only for the owning integrator with includeAuthenticatedData", async () => {
    const fields = (record: { data: Record<string, unknown> }) =>
      ["referrer", "platformFee", "apiKeyName"].filter((field) => field in record.data);
    const find = (body: { requests: Array<{ id: string; data: Record<string, unknown> }> }, id: string) =>
      body.requests.find((r) => r.id === id)!;
    expect(fields(find((await get("")).body, ids.pending))).toEqual([]);
    const owner = find((await get("includeAuthenticatedData=true")).body, ids.pending);
    expect(owner.data).toMatchObject({
      referrer: "my.app",
      apiKeyName: "acme-main",
      platformFee: expect.objectContaining({ amount: "2" }),
    });
    // a second key of the same integrator owns it too; another integrator's key does not
    expect(fields(find((await get("includeAuthenticatedData=true", acme2.key)).body, ids.pending))).toEqual([
      "referrer",
      "platformFee",
      "apiKeyName",
    ]);
    expect(fields(find((await get("includeAuthenticatedData=true", other.key)).body, ids.pending))).toEqual([]);
    expect(fields(find((await get("includeAuthenticatedData=true")).body, ids.success))).toEqual([]);
    expect(fields(find((await get("includeAuthenticatedData=true")).body, ids.waiting))).toEqual([]);
  });

  it("filters by each top-level family", async () => {
    expect(await idsOf("status=pending")).toEqual([ids.pending]);
    expect(await idsOf(`id=${ids.failure.toUpperCase().replace("0X", "0x")}`)).toEqual([ids.failure]);
    expect(await idsOf(`user=${BOB.toLowerCase()}`)).toEqual([ids.pending]);
    expect(await idsOf(`recipient=${DAVE}`)).toEqual([ids.pending]);
    expect((await idsOf(`recipient=${BOB}`)).length).toBe(4);
    expect(await idsOf("originChainId=31339")).toEqual([ids.success]);
    expect(await idsOf("destinationChainId=31338")).toEqual([ids.success]);
    expect((await idsOf("chainId=31338")).length).toBe(5);
    expect(await idsOf("failReason=SOLVER_BALANCE_TOO_LOW")).toEqual([ids.failure]);
    expect(await idsOf("refundFailReason=MANUAL_REFUND_REQUIRED")).toEqual([ids.refund]);
    expect(await idsOf("requestType=call")).toEqual([ids.refund]);
    expect(await idsOf("currencyInSymbol=usdc")).toEqual([ids.success]);
    expect(await idsOf("currencyOutSymbol=Usdc")).toEqual([ids.failure, ids.success]);
    expect(await idsOf("currencyInChainId=31339&currencyOutChainId=31338")).toEqual([ids.success]);
    expect((await idsOf(`currencyInAddress=${zeroAddress}`)).length).toBe(5);
    expect(await idsOf(`depositTxHash=${hashes.deposit}`)).toEqual([ids.pending]);
    expect(await idsOf(`fillTxHash=${hashes.fill}`)).toEqual([ids.success]);
    expect(await idsOf("startBlock=70&endBlock=80")).toEqual([ids.pending]);
    expect(await idsOf("amountUsdMin=30&amountUsdMax=300")).toEqual([ids.success, ids.pending]);
    expect(await idsOf("fillTimeMin=10&fillTimeMax=12")).toEqual([ids.success]);
    expect(await idsOf("fillTimeMin=13")).toEqual([]);
    expect(await idsOf("appFeesAmountUsdMin=0.01")).toEqual([]);
    expect(await idsOf("features=app_fees")).toEqual([]);
    const now = Math.floor(Date.now() / 1000);
    expect(await idsOf(`startTimestamp=${now - 35 * 60}&endTimestamp=${now - 15 * 60}`)).toEqual([
      ids.failure,
      ids.success,
    ]);
    // privateChainsToInclude has its own file (test/privateChains.test.ts).
    expect(await idsOf("includeChildRequests=true&status=success")).toEqual([ids.success]);
  });

  it("searches term over request id, wallets and every tx hash", async () => {
    expect(await idsOf(`term=${ids.refund}`)).toEqual([ids.refund]);
    expect(await idsOf(`term=${CAROL.toLowerCase()}`)).toEqual([ids.success]);
    expect(await idsOf(`term=${hashes.deposit.toUpperCase().replace("0X", "0x")}`)).toEqual([ids.pending]);
    expect(await idsOf(`term=${hashes.fill}`)).toEqual([ids.success]);
    expect(await idsOf(`term=${hex32()}`)).toEqual([]);
  });

  it("speaks the filters language: AND in a group, OR across groups, not:, arrays and null checks", async () => {
    expect(await idsOf(filters([{ status: "pending" }, { status: "failure" }]))).toEqual([ids.failure, ids.pending]);
    expect(await idsOf(filters([{ status: ["pending", "failure"], originChainId: 31338 }]))).toEqual([
      ids.failure,
      ids.pending,
    ]);
    expect((await idsOf(filters([{ "not:status": ["pending", "failure"] }]))).sort()).toEqual(
      [ids.waiting, ids.success, ids.refund].sort(),
    );
    expect(await idsOf(filters([{ failReason: null, refundFailReason: null, "not:depositTxHash": null }]))).toEqual([
      ids.success,
      ids.pending,
    ]);
    expect(await idsOf(filters([{ "not:failReason": null }]))).toEqual([ids.failure]);
    expect(await idsOf(filters([{ "not:failReason": "SOLVER_BALANCE_TOO_LOW", status: "failure" }]))).toEqual([]);
    expect((await idsOf(filters([{ depositAddress: null }]))).length).toBe(5);
    expect(await idsOf(filters([{ "not:depositAddress": null }]))).toEqual([]);
    expect(await idsOf(filters([{ user: null }]))).toEqual([]);
    expect((await idsOf(filters([{ "not:currencyInSymbol": null }]))).length).toBe(5);
    expect(await idsOf(filters([{ fillTxHash: [hashes.fill] }, { depositTxHash: hashes.deposit }]))).toEqual([
      ids.success,
      ids.pending,
    ]);
    expect(await idsOf(`status=success&${filters([{ status: "pending" }, { chainId: 31339 }])}`)).toEqual([
      ids.success,
    ]);
    expect(await idsOf(filters([{ currencyInSymbol: "eth", "not:requestType": "Call" }]))).toEqual([
      ids.failure,
      ids.pending,
      ids.waiting,
    ]);
  });

  it("answers 400 naming the parameter for every malformed filter", async () => {
    const cases: Array<[string, RegExp]> = [
      [filters([{ failReason: [null, "UNKNOWN"] }]), /^filters\[0\]\.failReason: null cannot be mixed/],
      [filters([{ startTimestamp: 1 }]), /^filters\[0\]\.startTimestamp: .*top-level/],
      [filters([{ amountUsdMin: "1" }]), /^filters\[0\]\.amountUsdMin: .*top-level/],
      [filters([{ features: ["app_fees"] }]), /^filters\[0\]\.features: .*top-level/],
      [filters([{ colour: "red" }]), /^filters\[0\]\.colour: unknown filter key/],
      [
        filters([{ status: "waiting" }]),
        /^filters\[0\]\.status: must be one of success, failure, refund, pending, depositing/,
      ],
      [filters([{}]), /^filters\[0\]: a group needs/],
      [filters([{ status: [] }]), /^filters\[0\]\.status: an array needs/],
      [filters([{ status: { a: 1 } }]), /^filters\[0\]\.status: expected a value/],
      [filters({ status: "pending" }), /^filters: must be a JSON array/],
      ["filters=%7Bnot-json", /^filters: must be a JSON-encoded array/],
      [filters([{ originChainId: "abc" }]), /^filters\[0\]\.originChainId: must be a positive integer/],
      [filters([{ referrer: "" }]), /^filters\[0\]\.referrer: must not be empty/],
      ["status=waiting", /^status: must be one of/],
      ["limit=0", /^limit: must be between 1 and 50/],
      ["limit=51", /^limit: must be between 1 and 50/],
      ["limit=ten", /^limit: must be an integer/],
      ["includeTotal=yes", /^includeTotal: must be true or false/],
      ["sortBy=id", /^sortBy: must be one of createdAt, updatedAt, amountUsd/],
      ["sortDirection=up", /^sortDirection: must be asc or desc/],
      ["startTimestamp=10&endTimestamp=5", /^startTimestamp: must not exceed endTimestamp/],
      ["amountUsdMin=-1", /^amountUsdMin: must be a non-negative decimal/],
      ["features=teleport", /^features: must be a comma-separated list/],
      [`hash=${hex32()}`, /^hash: was removed; use term/],
      ["colour=red", /^colour: unknown parameter/],
      ["status=pending&status=success", /^status: may be given once/],
      [`id=0x1234`, /^id: must be a 32-byte hex string/],
      ["privateChainsToInclude=abc", /^privateChainsToInclude: must be comma-separated UUIDs/],
      ["term=", /^term: must not be empty/],
      ["startBlock=1.5", /^startBlock: must be an integer/],
      ["originChainId=-3", /^originChainId: must be a positive integer chain id/],
      ["referrer=", /^referrer: must not be empty/],
      // Values Postgres would refuse (a 500 before): beyond its timestamps, NUL bytes in text.
      ["startTimestamp=99999999999999", /^startTimestamp: must be between 0 and 253402300799/],
      ["endTimestamp=253402300800", /^endTimestamp: must be between 0 and 253402300799/],
      ["term=ab%00cd", /^term: must not contain control characters/],
      ["user=0x%00", /^user: must not contain control characters/],
      ["currencyInSymbol=US%00DC", /^currencyInSymbol: must not contain control characters/],
      [
        filters([{ currencyOutSymbol: "US\u0000DC" }]),
        /^filters\[0\]\.currencyOutSymbol: must not contain control characters/,
      ],
    ];
    for (const [query, message] of cases) {
      const { status, body } = await get(query);
      expect({ query, status }).toEqual({ query, status: 400 });
      expect(body.errorCode).toBe("INVALID_INPUT");
      expect(body.message).toMatch(message);
    }
  });

  it("pairs referrer with owned keys: 400 without apiKey, 403 for keys not owned or unknown", async () => {
    expect((await get("referrer=my.app")).status).toBe(400);
    expect((await get("referrer=my.app")).body.message).toMatch(/^apiKey: a referrer filter must be paired/);
    expect((await get(filters([{ "not:referrer": "my.app" }]))).status).toBe(400);
    expect((await get(`referrer=their.app&apiKey=${other.id}`)).status).toBe(403);
    expect((await get(`referrer=my.app&apiKey=${acme.id},${other.id}`)).body).toEqual({
      message: expect.stringMatching(/^apiKey:/),
      errorCode: "FORBIDDEN",
    });
    expect((await get(`referrer=my.app&apiKey=key_doesnotexist`)).status).toBe(403);
    expect(await idsOf(`referrer=my.app&apiKey=${acme.id},${acme2.id}`)).toEqual([ids.failure, ids.pending]);
    // the key itself works as well as its id
    expect(await idsOf(`referrer=my.app&apiKey=${acme.key}`)).toEqual([ids.pending]);
    expect(await idsOf(`apiKey=${acme.id},${acme2.id}&${filters([{ "not:referrer": "my.app" }])}`)).toEqual([]);
    expect(await idsOf(`apiKey=${other.id}`, other.key)).toEqual([ids.success]);
    expect((await get(`apiKey=${other.id}`)).status).toBe(403);
  });

  it("counts with includeTotal independent of limit and continuation, and sorts per the spec's defaults", async () => {
    const first = await get("includeTotal=true&limit=2&chainId=31338");
    expect(first.body.total).toBe(5);
    expect(first.body.requests).toHaveLength(2);
    const second = await get(
      `includeTotal=true&limit=2&chainId=31338&continuation=${encodeURIComponent(first.body.continuation)}`,
    );
    expect(second.body.total).toBe(5);
    expect(await idsOf("sortBy=amountUsd")).toEqual([ids.refund, ids.waiting, ids.pending, ids.success, ids.failure]);
    expect(await idsOf("sortBy=amountUsd&sortDirection=desc")).toEqual([
      ids.failure,
      ids.success,
      ids.pending,
      ids.waiting,
      ids.refund,
    ]);
    expect(await idsOf("sortDirection=asc")).toEqual([ids.waiting, ids.pending, ids.success, ids.failure, ids.refund]);
    expect(await idsOf("sortBy=updatedAt")).toEqual([ids.refund, ids.failure, ids.success, ids.pending, ids.waiting]);
  });

  it("pages with an opaque cursor that stays stable while new requests arrive, and refuses a tampered one", async () => {
    for (const sort of ["", "&sortDirection=asc", "&sortBy=amountUsd"]) {
      const seen: string[] = [];
      let continuation: string | null = null;
      const expected = await idsOf(`limit=50${sort}`);
      do {
        const { body } = await get(
          `limit=2${sort}${continuation ? `&continuation=${encodeURIComponent(continuation)}` : ""}`,
        );
        seen.push(...body.requests.map((r: { id: string }) => r.id));
        continuation = body.continuation;
        // new requests keep arriving between pages
        await insertTestRequest(stack.pool, { quote: storedQuote("ETH", "ETH", "5", 31338, 31339) });
      } while (continuation);
      const newOnes = seen.filter((id) => !expected.includes(id));
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.filter((id) => expected.includes(id))).toEqual(expected);
      if (sort === "") expect(newOnes).toEqual([]);
    }
    const { body } = await get("limit=1");
    const [payload, signature] = (body.continuation as string).split(".");
    const forged = Buffer.from(
      JSON.stringify({ s: "createdAt", d: "desc", v: "2099-01-01 00:00:00+00", i: ids.refund }),
    ).toString("base64url");
    for (const bad of [`${forged}.${signature}`, `${payload}x.${signature}`, "nonsense"]) {
      const answer = await get(`limit=1&continuation=${encodeURIComponent(bad)}`);
      expect(answer.status).toBe(400);
      expect(answer.body.message).toMatch(/^continuation:/);
    }
    expect((await get(`limit=1&sortDirection=asc&continuation=${encodeURIComponent(body.continuation)}`)).status).toBe(
      400,
    );
  });

  it("stores the quoting key on the request; quotes work without one and refuse an unknown one", async () => {
    const [origin, destination] = stack.devnet.chains;
    const quote = {
      user: stack.devnet.accounts[0].address,
      originChainId: origin.id,
      destinationChainId: destination.id,
      originCurrency: zeroAddress,
      destinationCurrency: zeroAddress,
      amount: "100000000000000000",
      tradeType: "EXACT_INPUT",
      referrer: "keyed.app",
    };
    const keyed = await fetch(`${stack.url}/quote/v2`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": acme.key },
      body: JSON.stringify(quote),
    });
    expect(keyed.status).toBe(200);
    const { requestId } = (await keyed.json()) as { requestId: string };
    const { body } = await get(`id=${requestId}&includeAuthenticatedData=true`);
    expect(body.requests[0].data).toMatchObject({ referrer: "keyed.app", apiKeyName: "acme-main" });
    expect(body.requests[0].data.route.quoted.origin.inputCurrency.currency.symbol).toBe("ETH");
    expect((await postQuote(stack.url, quote)).status).toBe(200);
    const before = (await stack.pool.query("SELECT count(*)::int AS n FROM crossfill.requests")).rows[0].n;
    const unknown = await fetch(`${stack.url}/quote/v2`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "cf_nope" },
      body: JSON.stringify(quote),
    });
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toEqual({ message: "x-api-key is not a known API key", errorCode: "UNAUTHORIZED" });
    expect((await stack.pool.query("SELECT count(*)::int AS n FROM crossfill.requests")).rows[0].n).toBe(before);
  });
});
