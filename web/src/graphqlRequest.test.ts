import { afterEach, describe, expect, it, vi } from "vitest";
import { GraphqlError } from "./GraphqlError";
import { graphqlRequest } from "./graphqlRequest";

/** The gateway's answers, in order: each call to fetch takes the next. */
function answering(...answers: Array<{ status: number; body: unknown; retryAfter?: string }>) {
  const calls: unknown[] = [];
  vi.stubGlobal("fetch", async (_url: string, init: { body: string }) => {
    calls.push(JSON.parse(init.body));
    const answer = answers.shift()!;
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: answer.retryAfter === undefined ? {} : { "retry-after": answer.retryAfter },
    });
  });
  return calls;
}
const limited = { status: 429, body: { message: "rate limit exceeded", errorCode: "RATE_LIMITED" }, retryAfter: "0" };

describe("graphqlRequest", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("tries a rate-limited read again after its Retry-After, then answers its data", async () => {
    const calls = answering(limited, limited, { status: 200, body: { data: { chains: [] } } });
    expect(await graphqlRequest("query { chains { id } }")).toEqual({ chains: [] });
    expect(calls).toHaveLength(3);
  });

  it("gives up after three retries with the rate limit's error, and never retries other errors", async () => {
    const calls = answering(limited, limited, limited, limited, limited);
    await expect(graphqlRequest("query { chains { id } }")).rejects.toMatchObject({
      code: "RATE_LIMITED",
      retryAfterMs: 0,
    });
    expect(calls).toHaveLength(4);

    const refused = answering({
      status: 200,
      body: { errors: [{ message: "no", extensions: { code: "FORBIDDEN" } }] },
    });
    const error = await graphqlRequest("query { x }").catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(GraphqlError);
    expect(error).toMatchObject({ code: "FORBIDDEN", message: "no" });
    expect(refused).toHaveLength(1);
  });
});
