import { zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postQuote } from "./support/postQuote.js";
import { route } from "./support/route.js";
import { type RestAppStack, startRestApp } from "./support/startRestApp.js";

const post = async (url: string, body: string, headers: Record<string, string> = {}) => {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
  return { status: response.status, body: (await response.json()) as any };
};

describe("bad input over the real HTTP server: 400 INVALID_INPUT, nothing written, never a 500 or a reset", () => {
  let stack: RestAppStack;
  let quote: Record<string, unknown>;
  beforeAll(async () => {
    stack = await startRestApp();
    const [origin, destination] = stack.devnet.chains;
    quote = {
      user: stack.devnet.accounts[0].address,
      ...route(origin, destination),
      amount: "1000",
      tradeType: "EXACT_INPUT",
    };
  });
  afterAll(async () => {
    await stack?.stop();
  });
  const requestCount = async () =>
    (await stack.pool.query("SELECT count(*)::int AS n FROM crossfill.requests")).rows[0].n;

  it("refuses a NUL character anywhere in a JSON body, naming the field, and writes nothing", async () => {
    const before = await requestCount();
    const referrer = await postQuote(stack.url, { ...quote, referrer: "a\u0000b" });
    expect(referrer).toEqual({
      status: 400,
      body: { message: "referrer must not contain control characters (U+0000)", errorCode: "INVALID_INPUT" },
    });
    const nested = await postQuote(stack.url, {
      ...quote,
      txs: [{ to: zeroAddress, data: "0x", value: "0" }, "\u0000"],
    });
    expect(nested).toMatchObject({ status: 400, body: { message: expect.stringMatching(/^txs\[1\] /) } });
    const key = await postQuote(stack.url, { ...quote, "a\u0000": 1 });
    expect(key).toMatchObject({ status: 400, body: { errorCode: "INVALID_INPUT" } });
    expect(await requestCount()).toBe(before);
    for (const path of ["/price", "/transactions/index", "/authorize"]) {
      const answer = await post(`${stack.url}${path}`, JSON.stringify({ txHash: "\u0000", referrer: "x\u0000" }));
      expect(answer).toMatchObject({ status: 400, body: { errorCode: "INVALID_INPUT" } });
    }
  });

  it("refuses a NUL character in GraphQL variables and inline strings with INVALID_INPUT and HTTP 400", async () => {
    const variables = await post(
      `${stack.url}/graphql`,
      JSON.stringify({ query: "query($id: String!) { request(id: $id) { id } }", variables: { id: "a\u0000b" } }),
    );
    expect(variables.status).toBe(400);
    expect(variables.body.errors[0]).toMatchObject({
      message: "variables.id must not contain control characters (U+0000)",
      extensions: { code: "INVALID_INPUT" },
    });
    const inline = await post(`${stack.url}/graphql`, JSON.stringify({ query: '{ request(id: "a\\u0000b") { id } }' }));
    expect(inline.status).toBe(400);
    expect(inline.body.errors[0].extensions.code).toBe("INVALID_INPUT");
    const get = await fetch(
      `${stack.url}/graphql?query=${encodeURIComponent("query($id: String!) { request(id: $id) { id } }")}&variables=${encodeURIComponent(JSON.stringify({ id: "\u0000" }))}`,
      { headers: { accept: "application/json" } },
    );
    expect(get.status).toBe(400);
    expect(((await get.json()) as any).errors[0].extensions.code).toBe("INVALID_INPUT");
  });

  it("refuses control characters in the query strings of GET routes", async () => {
    for (const path of ["/intents/status/v3?requestId=a%00b", "/intents/status?requestId=a%00b"]) {
      const response = await fetch(`${stack.url}${path}`);
      expect([path, response.status]).toEqual([path, 400]);
      expect(((await response.json()) as any).errorCode).toBe("INVALID_INPUT");
    }
  });

  for (const [shape, open, close] of [
    ["arrays", "[", "]"],
    ["objects", '{"a":', "}"],
  ] as const) {
    const deep = `${open.repeat(5_000)}1${close.repeat(5_000)}`;
    it(`answers 400 to a JSON body of 5,000 nested ${shape} on /graphql and on a REST route`, async () => {
      const graphql = await post(`${stack.url}/graphql`, `{"query":"{ chains { id } }","variables":{"v":${deep}}}`);
      expect(graphql.status).toBe(400);
      expect(graphql.body.errors[0].extensions.code).toBe("INVALID_INPUT");
      expect(graphql.body.errors[0].message).toMatch(/nested deeper than 64/);
      const rest = await post(`${stack.url}/quote/v2`, deep);
      expect(rest).toEqual({
        status: 400,
        body: { message: "the request body is nested deeper than 64 levels", errorCode: "INVALID_INPUT" },
      });
    });
  }

  it("still accepts a body nested 64 levels deep", async () => {
    const deep = `${"[".repeat(63)}1${"]".repeat(63)}`;
    const answer = await postQuote(stack.url, { ...quote, referrer: "ok", extra: JSON.parse(deep) });
    expect(answer.body.errorCode).not.toBe("INVALID_INPUT");
  });

  // Issue 29, defect 4: an error says what to do.
  it("says a missing field is required, and once that a form body must be JSON", async () => {
    const { amount: _amount, ...withoutAmount } = quote;
    const missing = await postQuote(stack.url, withoutAmount);
    expect(missing).toMatchObject({ status: 400, body: { errorCode: "INVALID_INPUT", message: "amount: required" } });

    const form = new URLSearchParams(Object.entries(quote).map(([key, value]) => [key, String(value)])).toString();
    const asForm = await post(`${stack.url}/quote`, form, { "content-type": "application/x-www-form-urlencoded" });
    expect(asForm).toEqual({
      status: 400,
      body: {
        errorCode: "INVALID_INPUT",
        message:
          "the request body must be JSON, sent with content-type: application/json (this one is application/x-www-form-urlencoded)",
      },
    });
    // curl -d '{…}' without a content-type header: the JSON is read all the same
    const jsonAsForm = await post(`${stack.url}/quote`, JSON.stringify({ ...quote, amount: "10000000000000000" }), {
      "content-type": "application/x-www-form-urlencoded",
    });
    expect({ status: jsonAsForm.status, errorCode: jsonAsForm.body.errorCode }).toEqual({ status: 200 });
  });
});
