import { textResponse } from "./textResponse.js";

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

type Call = {
  url: string;
  init: RequestInit;
  id: unknown;
  body: string;
  resolve: (response: Response) => void;
  reject: (error: unknown) => void;
};

/**
 * A `fetch` for viem's JSON-RPC transport that sends the calls made in one turn of the event loop as one JSON-RPC
 * batch (at most `maxBatch` a request): under load, quotes' balance reads share HTTP requests instead of paying one
 * each (a request costs the API and the node more CPU than the read). A call alone in its turn goes as it is, so
 * nothing waits: the batch is sent on `setImmediate`, not on a timer as viem's own batching is. Each call gets its
 * own answer, so viem's errors and retries work per call; an answer the node left out of the batch fails its call as a
 * JSON-RPC error, and a batch the node refuses or fails (not an array, or not a 2xx) is sent again call by call, so
 * batching never changes an outcome. A call's own signal (viem's timeout) stops its waiting; the shared request ends
 * within `timeoutMs`.
 */
export function batchingFetch(fetch: Fetch, options: { maxBatch: number; timeoutMs: number }): Fetch {
  let queued: Call[] = [];
  const flush = () => {
    const calls = queued;
    queued = [];
    const byUrl = new Map<string, Call[]>();
    for (const call of calls) byUrl.set(call.url, [...(byUrl.get(call.url) ?? []), call]);
    for (const group of byUrl.values())
      for (let start = 0; start < group.length; start += options.maxBatch)
        send(group.slice(start, start + options.maxBatch));
  };
  const sendAlone = (call: Call) => fetch(call.url, { ...call.init, body: call.body }).then(call.resolve, call.reject);
  const send = (calls: Call[]) => {
    if (calls.length === 1) return sendAlone(calls[0]);
    fetch(calls[0].url, {
      method: calls[0].init.method,
      headers: calls[0].init.headers,
      body: `[${calls.map((call) => call.body).join(",")}]`,
      signal: AbortSignal.timeout(options.timeoutMs),
    }).then(
      async (response) => {
        const answers = response.ok ? answersById(await response.text()) : undefined;
        // A node that refuses batches, or failed this one: each call goes again alone and gets its own answer.
        if (!answers) return calls.forEach(sendAlone);
        for (const call of calls) {
          const answer = answers.get(call.id);
          const own =
            answer !== undefined
              ? JSON.stringify(answer)
              : JSON.stringify({
                  jsonrpc: "2.0",
                  id: call.id,
                  error: { code: -32603, message: "the node's batch answer left this call out" },
                });
          call.resolve(textResponse(response.status, response.statusText, response.headers, own));
        }
      },
      (error: unknown) => calls.forEach((call) => call.reject(error)),
    );
  };
  return (input, init = {}) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const body = typeof init.body === "string" ? init.body : undefined;
    const id = body === undefined ? undefined : idOf(body);
    if (body === undefined || id === undefined) return fetch(input, init);
    return new Promise<Response>((resolve, reject) => {
      const signal = init.signal ?? undefined;
      if (signal?.aborted) return reject(signal.reason);
      signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
      if (queued.length === 0) setImmediate(flush);
      queued.push({ url, init, id, body, resolve, reject });
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

/** A batch answer's elements by id, or undefined when the answer is not an array of them. */
function answersById(text: string): Map<unknown, unknown> | undefined {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!Array.isArray(parsed)) return undefined;
    return new Map(parsed.map((answer: { id?: unknown }) => [answer?.id, answer]));
  } catch {
    return undefined;
  }
}
