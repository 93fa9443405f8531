import { textResponse } from "./textResponse.js";

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

type Call = {
  url: string;
  init: RequestInit;
  id: unknown;
  body: string;
  /** Answered, failed or aborted: an aborted call still queued is not sent. */
  settled: boolean;
  resolve: (response: Response) => void;
  reject: (error: unknown) => void;
};

/**
 * A `fetch` for viem's JSON-RPC transport that sends the calls made in one turn of the event loop as one JSON-RPC
 * batch (at most `maxBatch` a request): under load, quotes' balance reads share HTTP requests instead of paying one
 * each (a request costs the API and the node more CPU than the read). A call alone in its turn goes as it is, so
 * nothing waits: the batch is sent on `setImmediate`, not on a timer as viem's own batching is. Each call gets its
 * own answer, so viem's errors, retries and back-off work per call: a batch the node failed (a 429 or 5xx) gives every
 * call that failure, and an answer the node left out of the batch fails its call as a JSON-RPC error. A node that
 * refuses batches (400 or 413, or one error for the whole batch, bare or in a one-element array as geth does) has the
 * calls sent again one by one, and so has every later call: batching is off for it from then on. A call's own signal
 * (viem's timeout) stops its waiting; the shared request ends a second after that.
 */
export function batchingFetch(fetch: Fetch, options: { maxBatch: number; timeoutMs: number }): Fetch {
  let queued: Call[] = [];
  let refused = false;
  const flush = () => {
    const calls = queued.filter((call) => !call.settled);
    queued = [];
    const byUrl = new Map<string, Call[]>();
    for (const call of calls) {
      const group = byUrl.get(call.url);
      if (group) group.push(call);
      else byUrl.set(call.url, [call]);
    }
    for (const group of byUrl.values())
      for (let start = 0; start < group.length; start += options.maxBatch)
        send(group.slice(start, start + options.maxBatch));
  };
  const sendAlone = (call: Call) => {
    fetch(call.url, { ...call.init, body: call.body }).then(call.resolve, call.reject);
  };
  const send = (calls: Call[]) => {
    if (calls.length === 1 || refused) return calls.forEach(sendAlone);
    const answered = async (response: Response) => {
      const text = await response.text();
      const answers = response.ok ? answersById(text) : undefined;
      if ((response.ok && !answers) || response.status === 400 || response.status === 413) {
        refused = true;
        return calls.forEach(sendAlone);
      }
      for (const call of calls) {
        const answer = answers?.get(call.id);
        const own = !answers
          ? text // the batch failed as a whole: every call gets that failure
          : answer !== undefined
            ? JSON.stringify(answer)
            : JSON.stringify({
                jsonrpc: "2.0",
                id: call.id,
                error: { code: -32603, message: "the node's batch answer left this call out" },
              });
        call.resolve(textResponse(response.status, response.statusText, response.headers, own));
      }
    };
    fetch(calls[0].url, {
      method: calls[0].init.method,
      headers: calls[0].init.headers,
      body: `[${calls.map((call) => call.body).join(",")}]`,
      signal: AbortSignal.timeout(options.timeoutMs + 1_000),
    })
      .then(answered)
      .catch((error: unknown) => calls.forEach((call) => call.reject(error)));
  };
  return (input, init = {}) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const body = typeof init.body === "string" ? init.body : undefined;
    const id = body === undefined ? undefined : idOf(body);
    if (body === undefined || id === undefined || refused) return fetch(input, init);
    return new Promise<Response>((resolve, reject) => {
      const signal = init.signal ?? undefined;
      if (signal?.aborted) return reject(signal.reason);
      const call: Call = {
        url,
        init,
        id,
        body,
        settled: false,
        resolve: (response) => settle(() => resolve(response)),
        reject: (error) => settle(() => reject(error)),
      };
      const onAbort = () => call.reject(signal?.reason);
      const settle = (done: () => void) => {
        if (call.settled) return;
        call.settled = true;
        signal?.removeEventListener("abort", onAbort);
        done();
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      if (queued.length === 0) setImmediate(flush);
      queued.push(call);
    });
  };
}

/** The id of a single JSON-RPC call; undefined for anything else (an array, a notification), which goes unbatched. */
function idOf(body: string): unknown {
  try {
    const parsed = JSON.parse(body) as unknown;
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed) && "id" in parsed) return parsed.id;
  } catch {
    // not JSON: sent as it is
  }
  return undefined;
}

/**
 * A batch answer's elements by id, or undefined when it is not an answer to the calls: not an array, or one element
 * without an id (a refusal of the whole batch).
 */
function answersById(text: string): Map<unknown, unknown> | undefined {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!Array.isArray(parsed)) return undefined;
    const answers = new Map(parsed.map((answer: { id?: unknown }) => [answer?.id ?? null, answer]));
    return parsed.length === 1 && answers.has(null) ? undefined : answers;
  } catch {
    return undefined;
  }
}
