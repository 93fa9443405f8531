import { GraphqlError } from "./GraphqlError";

/** How often a rate-limited read is tried again before its error shows, and the longest wait honoured. */
const RATE_LIMIT_RETRIES = 3;
const LONGEST_WAIT_MS = 10_000;

/**
 * One GraphQL operation over HTTP against the gateway that served this page, with the dashboard's API key when
 * given; the first error becomes a GraphqlError carrying its code. A rate-limited answer (429, RATE_LIMITED) is tried
 * again after its Retry-After: a page's live re-reads share the caller's limit, so a burst must not strand it.
 */
export async function graphqlRequest<T>(
  query: string,
  variables: Record<string, unknown> = {},
  apiKey?: string,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await graphqlRequestOnce<T>(query, variables, apiKey);
    } catch (error) {
      if (!(error instanceof GraphqlError) || error.code !== "RATE_LIMITED" || attempt >= RATE_LIMIT_RETRIES)
        throw error;
      await new Promise((resolve) => setTimeout(resolve, error.retryAfterMs ?? 1_000));
    }
  }
}

async function graphqlRequestOnce<T>(query: string, variables: Record<string, unknown>, apiKey?: string): Promise<T> {
  const response = await fetch("/graphql", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json",
      ...(apiKey ? { "x-api-key": apiKey } : {}),
    },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json().catch(() => ({}))) as {
    data?: T;
    errors?: { message: string; extensions?: { code?: string } }[];
    errorCode?: string;
    message?: string;
  };
  const retryAfterHeader = response.headers.get("retry-after");
  const retryAfter = retryAfterHeader === null ? Number.NaN : Number(retryAfterHeader);
  const retryAfterMs =
    Number.isFinite(retryAfter) && retryAfter >= 0 ? Math.min(retryAfter * 1000, LONGEST_WAIT_MS) : undefined;
  if (body.errors?.length)
    throw new GraphqlError(body.errors[0].message, body.errors[0].extensions?.code, retryAfterMs);
  // The gateway's own refusals (an unknown key, a rate limit) come as REST error bodies.
  if (!response.ok || body.data === undefined)
    throw new GraphqlError(
      body.message ?? `the API answered ${response.status}`,
      body.errorCode ?? (response.status === 429 ? "RATE_LIMITED" : undefined),
      retryAfterMs,
    );
  return body.data;
}
