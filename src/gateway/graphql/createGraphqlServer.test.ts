import { randomBytes } from "node:crypto";
import pg from "pg";
import { zeroAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../../../schema/migrate.js";
import { markDepositReorged } from "../../../schema/requestDeposits.js";
import { queueRefund } from "../../../schema/refunds.js";
import { listRequestViews } from "../../../schema/requestsQuery.js";
import { transitionRequest } from "../../../schema/transitionRequest.js";
import { withTransaction } from "../../../schema/withTransaction.js";
import { insertTestRequest } from "../../../test/support/insertTestRequest.js";
import { createTestDatabase } from "../../../test/support/testDatabase.js";
import { createApiKey } from "../../apiKeys/createApiKey.js";
import { createChainRegistry } from "../../chains/chainRegistry.js";
import { buildRequestRecordV3 } from "../../requests/buildRequestRecordV3.js";
import { emptyFilter } from "../../../schema/requestFilter.js";
import { createStatusBus } from "../../events/createStatusBus.js";
import { createStatusFanout } from "../../events/createStatusFanout.js";
import {
  GRAPHQL_TEST_CHAINS,
  TEST_USDC,
  createTestGraphqlServer,
} from "../../../test/support/createTestGraphqlServer.js";
import { recordLookups } from "../../requests/recordLookups.js";
import { GRAPHQL_LIMITS, type createGraphqlServer } from "./createGraphqlServer.js";

const USDC = TEST_USDC;
const hash = () => `0x${randomBytes(32).toString("hex")}`;

describe("GraphQL over HTTP", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: pg.Pool;
  const bus = createStatusBus();
  let queries = 0;
  let failQueries = false;
  let server: ReturnType<typeof createGraphqlServer>;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 4 });
    await migrate(pool);
    const counting = {
      query: ((...args: Parameters<pg.Pool["query"]>) => {
        queries += 1;
        if (failQueries) return Promise.reject(new Error("connect ECONNREFUSED postgres://admin:hunter2@db"));
        return pool.query(...args);
      }) as pg.Pool["query"],
    };
    server = createTestGraphqlServer({ db: counting, statusUpdates: createStatusFanout(bus) });
  });
  afterAll(async () => {
    await server?.close();
    await bus.close();
    await pool?.end();
    await db?.drop();
  });

  async function gql(
    query: string,
    variables?: Record<string, unknown>,
    apiKey?: string,
  ): Promise<{ status: number; body: any }> {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      ...(apiKey ? { "x-api-key": apiKey } : {}),
    };
    const response = await server.fetch(
      new Request("http://localhost/graphql", { method: "POST", headers, body: JSON.stringify({ query, variables }) }),
    );
    return { status: response.status, body: await response.json() };
  }

  async function requestWithHistory(overrides: Parameters<typeof insertTestRequest>[1] = {}) {
    const request = await insertTestRequest(pool, {
      originCurrency: zeroAddress,
      destinationCurrency: USDC,
      ...overrides,
    });
    const deposit = hash();
    await pool.query(
      `INSERT INTO crossfill.request_deposits (chain_id, tx_hash, log_index, request_id, depositor, currency, amount, block_number, timestamp)
       VALUES (31338, $1, 0, $2, $3, $4, 1000, 7, 1700000000)`,
      [deposit, request.id, request.user, zeroAddress],
    );
    await withTransaction(pool, (client) =>
      transitionRequest(client, { requestId: request.id, to: "pending", details: { depositTxHash: deposit } }),
    );
    const fill = hash();
    await pool.query(
      `INSERT INTO crossfill.request_fills (chain_id, tx_hash, log_index, request_id, amount, block_number, timestamp, tx_fee)
       VALUES (31339, $1, 3, $2, 990, 9, 1700000005, 42000000000000)`,
      [fill, request.id],
    );
    await withTransaction(pool, (client) => transitionRequest(client, { requestId: request.id, to: "success" }));
    return { request, deposit, fill };
  }

  const REQUEST_FIELDS = `id status user sender recipient amountIn amountOut originChain { name } destinationChain { id }
    currencyIn { symbol chain { id } } currencyOut { symbol address }
    deposits { chainId txHash amount depositor currency { symbol } txFee } fills { txHash amount logIndex position txFee }
    statusEvents { fromStatus status details createdAt }`;

  it("answers a request with its deposits, fills and timeline, and batches: the same 4 queries for 1 request or 6", async () => {
    const made = await Promise.all(Array.from({ length: 6 }, () => requestWithHistory()));
    queries = 0;
    const one = await gql(`query ($id: String!) { request(id: $id) { ${REQUEST_FIELDS} } }`, {
      id: made[0].request.id.toUpperCase().replace("0X", "0x"),
    });
    expect(one.body.errors).toBeUndefined();
    const singleQueries = queries;
    const record = one.body.data.request;
    expect(record).toMatchObject({
      id: made[0].request.id,
      status: "success",
      sender: made[0].request.user,
      amountIn: "1000",
      originChain: { name: "devnet-0" },
      destinationChain: { id: 31339 },
      currencyIn: { symbol: "ETH", chain: { id: 31338 } },
      currencyOut: { symbol: "USDC" },
      deposits: [{ chainId: 31338, txHash: made[0].deposit, amount: "1000", currency: { symbol: "ETH" }, txFee: null }],
      fills: [{ txHash: made[0].fill, amount: "990", logIndex: 3, position: "3", txFee: "42000000000000" }],
    });
    expect(record.statusEvents.map((event: { status: string }) => event.status)).toEqual([
      "waiting",
      "pending",
      "success",
    ]);
    expect(record.statusEvents[1]).toMatchObject({
      fromStatus: "waiting",
      details: { depositTxHash: made[0].deposit },
    });

    queries = 0;
    const many = await gql(`query ($ids: [String!]!) { requestsByIds(ids: $ids) { ${REQUEST_FIELDS} } }`, {
      ids: [...made.map((entry) => entry.request.id), hash()],
    });
    expect(many.body.errors).toBeUndefined();
    expect(many.body.data.requestsByIds).toHaveLength(7);
    expect(many.body.data.requestsByIds[6]).toBeNull();
    expect(many.body.data.requestsByIds.slice(0, 6).map((entry: { fills: unknown[] }) => entry.fills.length)).toEqual([
      1, 1, 1, 1, 1, 1,
    ]);
    expect(singleQueries).toBe(4);
    expect(queries).toBe(4);
  });

  it("shows a position past GraphQL's 32-bit Int exactly in `position` and as a null `logIndex`, never an error", async () => {
    const { request, deposit, fill } = await requestWithHistory();
    // 2^31 is the first position no Int holds; 2^60 + 1 (a TON lt's size) is no double either.
    await pool.query(`UPDATE crossfill.request_deposits SET log_index = 2147483648 WHERE tx_hash = $1`, [deposit]);
    await pool.query(`UPDATE crossfill.request_fills SET log_index = 1152921504606846977 WHERE tx_hash = $1`, [fill]);
    const { status, body } = await gql(
      `query ($id: String!) { request(id: $id) { deposits { txHash logIndex position } fills { txHash logIndex position } } }`,
      { id: request.id },
    );
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    expect(body.data.request).toEqual({
      deposits: [{ txHash: deposit, logIndex: null, position: "2147483648" }],
      fills: [{ txHash: fill, logIndex: null, position: "1152921504606846977" }],
    });

    // The largest Int still shows in both.
    await pool.query(`UPDATE crossfill.request_deposits SET log_index = 2147483647 WHERE tx_hash = $1`, [deposit]);
    const fits = await gql(`query ($id: String!) { request(id: $id) { deposits { logIndex position } } }`, {
      id: request.id,
    });
    expect(fits.body.errors).toBeUndefined();
    expect(fits.body.data.request.deposits).toEqual([{ logIndex: 2147483647, position: "2147483647" }]);
  });

  it("shows, with no key, a deposit reorged out and the failure it caused, with the reorg's context", async () => {
    const request = await insertTestRequest(pool, { originCurrency: zeroAddress, destinationCurrency: USDC });
    const deposit = { chainId: 31338, txHash: hash(), position: 0, blockHash: hash() };
    await pool.query(
      `INSERT INTO crossfill.request_deposits (chain_id, tx_hash, log_index, request_id, depositor, currency, amount, block_number, timestamp, block_hash)
       VALUES (31338, $1, 0, $2, $3, $4, 1000, 7, 1700000000, $5)`,
      [deposit.txHash, request.id, request.user, zeroAddress, deposit.blockHash],
    );
    const reorg = { reason: "deposit transaction not found", failReason: "DEPOSIT_REORGED", blockNumber: 7 };
    await withTransaction(pool, async (client) => {
      await transitionRequest(client, { requestId: request.id, to: "pending" });
      await markDepositReorged(client, deposit, reorg);
      await transitionRequest(client, {
        requestId: request.id,
        from: ["pending"],
        to: "failure",
        failReason: "DEPOSIT_REORGED",
        details: reorg,
      });
    });
    const { body } = await gql(
      `query ($id: String!) { request(id: $id) { deposits { txHash reorg } statusEvents { status failReason details } } }`,
      { id: request.id },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.request.deposits).toEqual([{ txHash: deposit.txHash, reorg }]);
    expect(body.data.request.statusEvents.at(-1)).toEqual({
      status: "failure",
      failReason: "DEPOSIT_REORGED",
      details: reorg,
    });
  });

  it("answers a failed request's failed transaction and refunds, the refunds of many requests in one query", async () => {
    const failed = [];
    for (let i = 0; i < 3; i++) {
      const request = await insertTestRequest(pool, { originCurrency: zeroAddress, destinationCurrency: USDC });
      const deposit = { chainId: 31338, txHash: hash(), position: 0, currency: zeroAddress, amount: 1000n };
      const call = {
        from: "0x00000000000000000000000000000000000000aa",
        to: "0x00000000000000000000000000000000000000bb",
        data: "0x1234",
        value: "0",
      };
      await withTransaction(pool, async (client) => {
        await transitionRequest(client, { requestId: request.id, to: "pending" });
        await transitionRequest(client, {
          requestId: request.id,
          to: "failure",
          failReason: "EXECUTION_REVERTED",
          failedTransaction: {
            txHash: i === 0 ? null : hash(),
            blockNumber: i === 0 ? null : 77n,
            timestamp: null,
            fee: null,
            call,
          },
        });
        await queueRefund(client, {
          requestId: request.id,
          deposit,
          reason: "EXECUTION_REVERTED",
          refundsRequest: true,
          recipient: request.user,
        });
      });
      failed.push({ request, deposit, call });
    }
    queries = 0;
    const answer = await gql(
      `query ($ids: [String!]!) { requestsByIds(ids: $ids) {
        id failReason failedTransaction { txHash blockNumber call { from to data value } }
        refunds { status reason depositTxHash chainId currency { symbol } recipient deposited amount gasCost txHash }
      } }`,
      { ids: failed.map((entry) => entry.request.id) },
    );
    expect(answer.body.errors).toBeUndefined();
    expect(queries).toBe(2);
    const [simulated, mined] = answer.body.data.requestsByIds;
    expect(simulated).toMatchObject({
      failReason: "EXECUTION_REVERTED",
      failedTransaction: { txHash: null, blockNumber: null, call: failed[0].call },
    });
    expect(mined.failedTransaction).toMatchObject({
      blockNumber: "77",
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    expect(simulated.refunds).toEqual([
      {
        status: "queued",
        reason: "EXECUTION_REVERTED",
        depositTxHash: failed[0].deposit.txHash,
        chainId: 31338,
        currency: { symbol: "ETH" },
        recipient: failed[0].request.user.toLowerCase(),
        deposited: "1000",
        amount: null,
        gasCost: null,
        txHash: null,
      },
    ]);
  });

  it("answers null for an unknown request and INVALID_INPUT for a malformed id", async () => {
    expect((await gql(`{ request(id: "${hash()}") { id } }`)).body).toEqual({ data: { request: null } });
    const bad = await gql(`{ request(id: "0x12") { id } }`);
    expect(bad.body.errors[0]).toMatchObject({
      message: "id must be a 32-byte hex request id",
      extensions: { code: "INVALID_INPUT" },
    });
    const chain = await gql("{ chain(id: 5) { id } }");
    expect(chain.body.errors[0].extensions.code).toBe("UNSUPPORTED_CHAIN");
    const tooMany = await gql(
      `{ requestsByIds(ids: [${Array.from({ length: 51 }, () => `"${hash()}"`).join(",")}]) { id } }`,
    );
    expect(tooMany.body.errors[0]).toMatchObject({ extensions: { code: "INVALID_INPUT" } });
  });

  it("serves chains with their currencies", async () => {
    const { body } = await gql(
      "{ chains { id name depository currency { symbol decimals } currencies { symbol address metadata { isNative } } } }",
    );
    expect(body.data.chains).toHaveLength(2);
    expect(body.data.chains[0].currencies).toEqual([
      { symbol: "ETH", address: zeroAddress, metadata: { isNative: true } },
      { symbol: "USDC", address: USDC, metadata: { isNative: false } },
    ]);
  });

  it(`refuses over-deep (> ${GRAPHQL_LIMITS.depth}), over-wide (> ${GRAPHQL_LIMITS.aliases} aliases), too long and too costly operations before running them`, async () => {
    queries = 0;
    const nest = (depth: number): string => (depth <= 1 ? "symbol" : `chain { currencies { ${nest(depth - 2)} } }`);
    const deep = await gql(`{ chains { currencies { ${nest(8)} } } }`);
    expect(deep.body.errors[0].message).toMatch(/depth limit/i);
    expect(deep.body.errors[0].extensions.code).toBe("GRAPHQL_VALIDATION_FAILED");
    const fine = await gql(`{ chains { currencies { ${nest(5)} } } }`);
    expect(fine.body.errors, JSON.stringify(fine.body.errors)).toBeUndefined();

    const wide = await gql(
      `{ ${Array.from({ length: GRAPHQL_LIMITS.aliases + 1 }, (_, i) => `a${i}: chains { id }`).join(" ")} }`,
    );
    expect(wide.body.errors[0].message).toMatch(/aliases/i);

    const long = await gql(`{ chains { ${Array.from({ length: GRAPHQL_LIMITS.tokens }, () => "id").join(" ")} } }`);
    expect(long.body.errors[0].message).toMatch(/token/i);

    const costly = await gql(
      `{ ${Array.from({ length: GRAPHQL_LIMITS.aliases }, (_, i) => `a${i}: chains { currencies { chain { currencies { chain { currencies { chain { currencies { chain { name id vmType displayName depository receiver explorerUrl httpRpcUrl wsRpcUrl blockTimeSeconds } } } } } } } } }`).join(" ")} }`,
    );
    expect(costly.body.errors[0].message).toMatch(/cost/i);
    expect(queries).toBe(0);
  });

  it("answers a mistyped query 400 with the parser's message, an unknown field and an over-deep query 400 with their codes", async () => {
    const syntax = await gql("{ chains { id ");
    expect(syntax.status, JSON.stringify(syntax.body)).toBe(400);
    expect(syntax.body.errors[0].message).toMatch(/^Syntax Error: Expected Name, found <EOF>/);
    expect(syntax.body.errors[0].extensions.code).toBe("GRAPHQL_PARSE_FAILED");
    const unknown = await gql("{ chains { nope } }");
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].message).toMatch(/Cannot query field "nope"/);
    expect(unknown.body.errors[0].extensions.code).toBe("GRAPHQL_VALIDATION_FAILED");
    const nest = (depth: number): string => (depth <= 1 ? "symbol" : `chain { currencies { ${nest(depth - 2)} } }`);
    const deep = await gql(`{ chains { currencies { ${nest(12)} } } }`);
    expect(deep.status).toBe(400);
    expect(deep.body.errors[0].extensions.code).toBe("GRAPHQL_VALIDATION_FAILED");
  });

  it("masks internal errors: no message, stack or secret of the failure reaches the client", async () => {
    failQueries = true;
    try {
      const { body } = await gql(`{ request(id: "${hash()}") { id } }`);
      expect(body.errors[0]).toMatchObject({
        message: "Unexpected error.",
        extensions: { code: "INTERNAL_SERVER_ERROR" },
      });
      expect(JSON.stringify(body)).not.toMatch(/hunter2|ECONNREFUSED|stack/);
    } finally {
      failQueries = false;
    }
  });

  it("serves GraphiQL only when asked to (development)", async () => {
    const page = () => new Request("http://localhost/graphql", { headers: { accept: "text/html" } });
    const production = await server.fetch(page());
    expect(await production.text()).not.toMatch(/graphiql/i);
    const development = createTestGraphqlServer({ db: pool, statusUpdates: createStatusFanout(bus), graphiql: true });
    try {
      const response = await development.fetch(page());
      expect(response.headers.get("content-type")).toMatch(/text\/html/);
      expect(await response.text()).toMatch(/Crossfill GraphQL/);
    } finally {
      await development.close();
    }
  });

  it("maps quote engine errors to extensions.code", async () => {
    const quote = (destinationChainId: number) =>
      gql(`mutation ($input: CreateQuoteInput!) { createQuote(input: $input) { requestId } }`, {
        input: {
          user: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
          originChainId: 31338,
          destinationChainId,
          originCurrency: zeroAddress,
          destinationCurrency: zeroAddress,
          amount: "1000",
          tradeType: "EXACT_INPUT",
        },
      });
    const { body } = await quote(999999);
    expect(body.data).toBeNull();
    expect(body.errors[0].extensions.code).toBe("UNSUPPORTED_CHAIN");
    // The test chains' nodes are ports nothing listens on.
    expect((await quote(31339)).body.errors[0].extensions.code).toBe("RPC_HTTP_ERROR");
  });

  it("lists requests like GET /requests/v3: an API key is required, typed filters, cursor pages, loaders on the nodes", async () => {
    const serverKey = randomBytes(32);
    const acme = await createApiKey(pool, serverKey, { name: "acme" });
    const other = await createApiKey(pool, serverKey, { name: "other" });
    const wallet = privateKeyToAccount(generatePrivateKey()).address;
    const mine = [];
    for (let i = 0; i < 3; i++) mine.push(await requestWithHistory({ user: wallet, apiKeyId: acme.id }));
    const waiting = await insertTestRequest(pool, { user: wallet, apiKeyId: acme.id });
    await requestWithHistory({ user: wallet, apiKeyId: other.id });
    const LIST = `query ($filter: RequestFilterInput, $after: String) {
      requests(filter: $filter, first: 2, after: $after, includeTotal: true) {
        edges { cursor node { id status deposits { txHash } statusEvents { status } } }
        pageInfo { hasNextPage endCursor } totalCount } }`;

    const anonymous = await gql(LIST, { filter: { user: [wallet] } });
    expect(anonymous.body.errors[0].extensions.code).toBe("UNAUTHORIZED");
    const unknown = await gql(LIST, {}, "cf_not-a-key");
    expect(unknown.body.errors[0].extensions.code).toBe("UNAUTHORIZED");

    const filter = { user: [wallet.toLowerCase()], apiKey: [acme.id], status: ["success"] };
    queries = 0;
    const first = await gql(LIST, { filter }, acme.key);
    expect(first.body.errors, JSON.stringify(first.body.errors)).toBeUndefined();
    const page = first.body.data.requests;
    expect(page.totalCount).toBe(3);
    expect(page.pageInfo.hasNextPage).toBe(true);
    expect(page.edges).toHaveLength(2);
    expect(page.edges[0].node.statusEvents.map((event: { status: string }) => event.status)).toEqual([
      "waiting",
      "pending",
      "success",
    ]);
    const second = await gql(LIST, { filter, after: page.pageInfo.endCursor }, acme.key);
    expect(second.body.data.requests.pageInfo.hasNextPage).toBe(false);
    const ids = [...page.edges, ...second.body.data.requests.edges].map(
      (edge: { node: { id: string } }) => edge.node.id,
    );
    expect(new Set(ids)).toEqual(new Set(mine.map((entry) => entry.request.id)));

    const negated = await gql(
      LIST,
      { filter: { user: [wallet], apiKey: [acme.id], not: { status: ["success"] } } },
      acme.key,
    );
    expect(negated.body.data.requests.edges.map((edge: { node: { id: string } }) => edge.node.id)).toEqual([
      waiting.id,
    ]);
    const either = await gql(
      LIST,
      { filter: { apiKey: [acme.id], anyOf: [{ id: [waiting.id] }, { id: [mine[0].request.id] }] } },
      acme.key,
    );
    expect(either.body.data.requests.totalCount).toBe(2);

    const foreign = await gql(LIST, { filter: { apiKey: [other.id] } }, acme.key);
    expect(foreign.body.errors[0].extensions.code).toBe("FORBIDDEN");
    const malformed = await gql(LIST, { filter: { user: ["not an address"] } }, acme.key);
    expect(malformed.body.errors[0]).toMatchObject({ extensions: { code: "INVALID_INPUT" } });
    expect(malformed.body.errors[0].message).toMatch(/^filter\.user\[0\]/);
    const tampered = await gql(LIST, { filter, after: `${page.pageInfo.endCursor}x` }, acme.key);
    expect(tampered.body.errors[0].extensions.code).toBe("INVALID_INPUT");
  });

  it("shows a request's referrer only to a key of the integrator that quoted it, like data.referrer of GET /requests/v3", async () => {
    const serverKey = randomBytes(32);
    const owner = await createApiKey(pool, serverKey, { name: "owner-one", integrator: "owner" });
    const sameIntegrator = await createApiKey(pool, serverKey, { name: "owner-two", integrator: "owner" });
    const stranger = await createApiKey(pool, serverKey, { name: "stranger" });
    const quoted = await insertTestRequest(pool, { apiKeyId: owner.id, referrer: "owner.app" });
    const keyless = await insertTestRequest(pool, { referrer: "anyone.app" });
    const QUERY = "query ($ids: [String!]!) { requestsByIds(ids: $ids) { id referrer } }";
    const referrers = async (key?: string) =>
      (
        (await gql(QUERY, { ids: [quoted.id, keyless.id] }, key)).body.data.requestsByIds as Array<{
          referrer: string | null;
        }>
      ).map((r) => r.referrer);
    expect(await referrers(owner.key)).toEqual(["owner.app", null]);
    expect(await referrers(sameIntegrator.key)).toEqual(["owner.app", null]);
    expect(await referrers(stranger.key)).toEqual([null, null]);
    expect(await referrers()).toEqual([null, null]);
  });

  const ETH = {
    chainId: 31338,
    address: zeroAddress as string,
    symbol: "ETH",
    name: "Ether",
    decimals: 18,
    metadata: { logoURI: "", verified: true, isNative: true },
  };
  const OUT = {
    ...ETH,
    chainId: 31339,
    address: USDC,
    symbol: "USDC",
    name: "USD Coin",
    decimals: 6,
    metadata: { ...ETH.metadata, isNative: false },
  };
  const amount = (currency: typeof ETH, value: string, usd: string) => ({
    currency,
    amount: value,
    amountFormatted: value,
    amountUsd: usd,
    minimumAmount: value,
  });

  /** A quote as the engine stores it: fees, details and both sponsorship phases. */
  function storedQuote() {
    const zero = amount(ETH, "0", "0");
    const phase = {
      selectedComponents: ["relay"],
      capHit: false,
      components: {
        execution: { selected: false, total: zero, sponsored: zero, userPays: zero },
        relay: { selected: true, total: amount(ETH, "5", "0.01"), sponsored: amount(ETH, "5", "0.01"), userPays: zero },
      },
      sponsoredTotal: amount(ETH, "5", "0.01"),
      userPaysTotal: zero,
      maxSubsidizationAmount: "1000000",
      subsidizationBps: 10000,
    };
    return {
      fees: {
        gas: zero,
        relayer: amount(ETH, "7", "0.02"),
        relayerGas: amount(ETH, "2", "0.006"),
        relayerService: amount(ETH, "5", "0.01"),
        app: zero,
        subsidized: zero,
      },
      details: {
        currencyIn: amount(ETH, "1000", "3"),
        currencyOut: amount(OUT, "990", "2.97"),
        rate: "0.99",
        timeEstimate: 7,
        expandedPriceImpact: {
          swap: { usd: "0" },
          execution: { usd: "-0.006" },
          relay: { usd: "-0.01" },
          app: { usd: "0" },
          sponsored: { usd: "0" },
        },
      },
      feeSponsorship: {
        quoted: phase,
        actual: { ...phase, sponsorPayment: { amount: "5", address: zeroAddress, chainId: 31338 } },
      },
    };
  }

  const SIDE =
    "inputCurrency { amount amountUsd currency { symbol chainId } } outputCurrency { amount amountUsd currency { symbol } } router";
  const PHASE =
    "selectedComponents capHit components { component selected total { amount } sponsored { amount amountUsd } userPays { amount } } sponsoredTotal { amount } userPaysTotal { amount } maxSubsidizationAmount subsidizationBps sponsorPayment { amount address chainId }";
  const FEE = "usd amount amountFormatted";
  const V3_FIELDS = {
    fees: `fees { quoted { swap { ${FEE} } execution { ${FEE} } platform { ${FEE} } app { ${FEE} } sponsored { ${FEE} } } actual { platform { ${FEE} } } currency { symbol } }
      appFees { quoted { recipient bps amount } actual { amountUsd } currency { symbol } }`,
    feeSponsorship: `feeSponsorship { quoted { ${PHASE} } actual { ${PHASE} } currency { symbol } }`,
    route: `route { includedSwapSources includedOriginSwapSources includedDestinationSwapSources
      quoted { origin { ${SIDE} } destination { ${SIDE} } } actual { rate origin { ${SIDE} } destination { ${SIDE} } } }`,
  };
  // Within the operation limits (depth, cost) for a page of requests.
  const V3_SUMMARY =
    "features supersededByRequestId timeEstimate fees { quoted { execution { usd amount amountFormatted } } } route { actual { rate origin { inputCurrency { amount } } } }";

  it("types the v3 record's features, fees, appFees, feeSponsorship and route as GET /requests/v3 builds them, in a constant number of queries", async () => {
    const made = await Promise.all(Array.from({ length: 6 }, () => requestWithHistory({ quote: storedQuote() })));
    const waiting = await insertTestRequest(pool, { quote: storedQuote() });
    queries = 0;
    const one = await gql(`query ($id: String!) { request(id: $id) { ${REQUEST_FIELDS} ${V3_SUMMARY} } }`, {
      id: made[0].request.id,
    });
    expect(one.body.errors, JSON.stringify(one.body.errors)).toBeUndefined();
    // The 4 of the plain fields and one more for every v3 field of every request in the operation.
    expect(queries).toBe(5);
    queries = 0;
    const many = await gql(
      `query ($ids: [String!]!) { requestsByIds(ids: $ids) { ${REQUEST_FIELDS} ${V3_SUMMARY} } }`,
      {
        ids: [...made.map((entry) => entry.request.id), waiting.id],
      },
    );
    expect(many.body.errors, JSON.stringify(many.body.errors)).toBeUndefined();
    expect(queries).toBe(5);
    const detail = async (id: string) => {
      const parts = await Promise.all(
        Object.values(V3_FIELDS).map((fields) =>
          gql(`query ($id: String!) { request(id: $id) { ${fields} } }`, { id }),
        ),
      );
      for (const part of parts) expect(part.body.errors, JSON.stringify(part.body.errors)).toBeUndefined();
      return Object.assign({}, ...parts.map((part) => part.body.data.request));
    };

    // The same values as the REST record built from the same view.
    const filter = emptyFilter();
    filter.conditions.push({ field: "id", negate: false, values: [made[0].request.id, waiting.id] });
    const views = await listRequestViews(pool, { filter, sortBy: "createdAt", sortDirection: "desc", limit: 2 });
    const rest = (id: string) =>
      buildRequestRecordV3(
        views.find((view) => view.id === id)!,
        { ...recordLookups(createChainRegistry(GRAPHQL_TEST_CHAINS)), includeAuthenticatedData: false },
      );
    const filled = { ...one.body.data.request, ...(await detail(made[0].request.id)) };
    const record = rest(made[0].request.id);
    expect(filled).toMatchObject({ features: record.features, supersededByRequestId: null, timeEstimate: 7 });
    expect(filled.fees.quoted).toEqual(record.data.fees.quoted);
    expect(filled.fees.quoted.platform).toEqual({
      usd: "-0.01",
      amount: "-5",
      amountFormatted: "-0.000000000000000005",
    });
    expect(filled.fees.actual.platform).toEqual(record.data.fees.actual.platform);
    expect(filled.appFees).toEqual({ quoted: [], actual: [], currency: { symbol: "ETH" } });
    expect(filled.feeSponsorship.quoted.selectedComponents).toEqual(["platform"]);
    expect(
      filled.feeSponsorship.quoted.components.map((component: { component: string }) => component.component).sort(),
    ).toEqual(["execution", "platform"]);
    expect(filled.feeSponsorship.quoted.sponsorPayment).toBeNull();
    expect(filled.feeSponsorship.actual).toMatchObject({
      subsidizationBps: 10000,
      maxSubsidizationAmount: "1000000",
      sponsorPayment: { amount: "5", address: zeroAddress, chainId: 31338 },
    });
    expect(filled.route.actual).toMatchObject({
      rate: record.data.route.actual.rate,
      origin: { inputCurrency: { amount: "1000", currency: { symbol: "ETH", chainId: 31338 } }, router: "crossfill" },
      destination: {
        inputCurrency: { amount: "990" },
        outputCurrency: { amount: "990", currency: { symbol: "USDC" } },
      },
    });
    expect(filled.route.quoted.destination.outputCurrency).toEqual({
      amount: "990",
      amountUsd: "2.97",
      currency: { symbol: "USDC" },
    });
    // Not deposited: the actual route falls back to the quoted one.
    const pending = await detail(waiting.id);
    expect(pending.fees.actual.platform).toEqual(pending.fees.quoted.platform);
    expect(pending.route.actual.origin).toEqual(pending.route.quoted.origin);
    expect(pending.route.actual.rate).toBe(rest(waiting.id).data.route.actual.rate);
  });

  it("lets a requests page select every v3 field within the operation limits", async () => {
    const key = await createApiKey(pool, randomBytes(32), { name: "everything" });
    await requestWithHistory({ apiKeyId: key.id, quote: storedQuote() });
    const everything = `{ requests(filter: { apiKey: ["${key.id}"] }, first: 50) { edges { node { ${REQUEST_FIELDS} ${Object.values(V3_FIELDS).join(" ")} } } } }`;
    const answer = await gql(everything, undefined, key.key);
    expect(answer.body.errors, JSON.stringify(answer.body.errors)).toBeUndefined();
    expect(answer.body.data.requests.edges[0].node.route.actual.origin.inputCurrency.currency.symbol).toBe("ETH");
  });

  it("serves the v3 fields of a requests page from the page's own query: no extra query per node", async () => {
    const serverKey = randomBytes(32);
    const key = await createApiKey(pool, serverKey, { name: "pages" });
    for (let i = 0; i < 3; i++) await requestWithHistory({ apiKeyId: key.id, quote: storedQuote() });
    const page = async (fields: string) => {
      queries = 0;
      const answer = await gql(
        `{ requests(filter: { apiKey: ["${key.id}"] }, first: 3) { edges { node { id ${fields} } } } }`,
        undefined,
        key.key,
      );
      expect(answer.body.errors, JSON.stringify(answer.body.errors)).toBeUndefined();
      expect(answer.body.data.requests.edges).toHaveLength(3);
      return { queries, nodes: answer.body.data.requests.edges.map((edge: { node: unknown }) => edge.node) };
    };
    const plain = await page("status");
    const typed = await page(V3_SUMMARY);
    expect(typed.queries).toBe(plain.queries);
    expect(typed.nodes[0].timeEstimate).toBe(7);
    expect(typed.nodes[0].fees.quoted.execution).toEqual({
      usd: "-0.006",
      amount: "-2",
      amountFormatted: "-0.000000000000000002",
    });
  });

  it("filters requests by the ranges, features and null checks of GET /requests/v3, and refuses bad ones as INVALID_INPUT naming the field", async () => {
    const serverKey = randomBytes(32);
    const key = await createApiKey(pool, serverKey, { name: "ranges" });
    const filled = await requestWithHistory({ apiKeyId: key.id });
    const waiting = await insertTestRequest(pool, { apiKeyId: key.id });
    const LIST = "query ($filter: RequestFilterInput) { requests(filter: $filter) { edges { node { id } } } }";
    const ids = async (filter: Record<string, unknown>) => {
      const answer = await gql(LIST, { filter: { apiKey: [key.id], ...filter } }, key.key);
      expect(answer.body.errors, JSON.stringify(answer.body.errors)).toBeUndefined();
      return answer.body.data.requests.edges.map((edge: { node: { id: string } }) => edge.node.id);
    };
    // The deposit is in block 7 and the fill 5 s after it.
    expect(await ids({ startBlock: "7", endBlock: "7", fillTimeMin: 5, fillTimeMax: 5 })).toEqual([filled.request.id]);
    expect(await ids({ startBlock: "8" })).toEqual([]);
    expect(await ids({ fillTimeMax: 4 })).toEqual([]);
    expect(await ids({ isNull: ["depositTxHash"] })).toEqual([waiting.id]);
    expect(await ids({ isNotNull: ["depositTxHash"] })).toEqual([filled.request.id]);
    expect(await ids({ anyOf: [{ isNull: ["fillTxHash"], id: [waiting.id] }, { status: ["success"] }] })).toHaveLength(
      2,
    );
    expect(await ids({ features: ["fast_fill"] })).toEqual([]);

    const bad = await gql(LIST, { filter: { apiKey: [key.id], fillTimeMin: 9, fillTimeMax: 1 } }, key.key);
    expect(bad.body.errors[0]).toMatchObject({
      message: "filter.fillTimeMin: must not exceed fillTimeMax",
      extensions: { code: "INVALID_INPUT" },
    });
    const mixed = await gql(
      LIST,
      { filter: { apiKey: [key.id], user: [filled.request.user], isNull: ["user"] } },
      key.key,
    );
    expect(mixed.body.errors[0]).toMatchObject({ extensions: { code: "INVALID_INPUT" } });
    expect(mixed.body.errors[0].message).toMatch(/^filter\.isNull: user/);
  });
});
