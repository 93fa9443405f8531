import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postGraphql } from "../../test/support/postGraphql.js";
import { postBridgeQuote } from "../../test/support/postQuote.js";
import { route } from "../../test/support/route.js";
import { type RestAppStack, startRestApp } from "../../test/support/startRestApp.js";
import { type Metrics, createMetrics } from "../metrics/createMetrics.js";

const CREATE_QUOTE = `mutation ($input: CreateQuoteInput!) { createQuote(input: $input) { requestId } }`;

/** One REST quote and one GraphQL createQuote against the gateway; both must be served. */
async function quoteBothWays(stack: RestAppStack) {
  const [origin, destination] = stack.devnet.chains;
  const user = stack.devnet.accounts[1]!;
  expect((await postBridgeQuote(stack.url, user, { origin, destination }, 10n ** 16n)).status).toBe(200);
  const graphql = await postGraphql(stack.url, CREATE_QUOTE, {
    input: { user: user.address, ...route(origin, destination), amount: "10000000000000000", tradeType: "EXACT_INPUT" },
  });
  expect(graphql.errors).toBeUndefined();
}

describe("the gateway server's metrics", () => {
  const metrics: Metrics = createMetrics("api");
  let observed: RestAppStack;
  let unobserved: RestAppStack;
  beforeAll(async () => {
    observed = await startRestApp({ metrics });
    unobserved = await startRestApp({ metrics: false });
  });
  afterAll(async () => {
    await observed?.stop();
    await unobserved?.stop();
  });

  it("observes REST and GraphQL quotes into the role's registry and serves it at /metrics", async () => {
    await quoteBothWays(observed);
    const page = await (await fetch(`${observed.url}/metrics`)).text();
    expect(page).toContain('crossfill_quotes_total{endpoint="/quote/v2",outcome="quoted",errorCode="",role="api"} 1');
    expect(page).toContain(
      'crossfill_quotes_total{endpoint="graphql createQuote",outcome="quoted",errorCode="",role="api"} 1',
    );
  });

  it("with metrics: false, serves quotes as before, observes nothing and has no /metrics", async () => {
    await quoteBothWays(unobserved);
    const answer = await fetch(`${unobserved.url}/metrics`);
    expect(answer.status).toBe(404);
    expect(await answer.json()).toMatchObject({ errorCode: "NOT_FOUND" });
  });
});
