import { UpstreamFailureError, UpstreamTimeoutError } from "../../domain/errors.js";

/** One entry of `userNonFundingLedgerUpdates`: when, the transfer's hash, and what moved. */
export type LedgerUpdate = { time: number; hash: string; delta: Record<string, unknown> & { type: string } };

/** A spot token as `spotMeta` lists it. */
export type SpotToken = { name: string; tokenId: string; weiDecimals: number };

/** What `POST /exchange` answers: HTTP 200 either way, a refusal as `err` with the exchange's message. */
export type ExchangeAnswer = { status: "ok"; response: unknown } | { status: "err"; response: string };

/** Most ledger updates one answer holds; a full page may have more behind it. */
export const LEDGER_PAGE = 500;

export type ExchangeApi = {
  info<T>(body: Record<string, unknown>, signal?: AbortSignal): Promise<T>;
  /** Posts a signed action; a refusal is an answer, not an error (network failures throw). */
  exchange(body: unknown): Promise<ExchangeAnswer>;
  /** An accepted transfer by its ledger hash (the explorer's `txDetails`); undefined when the exchange has none. */
  txDetails(hash: string): Promise<{ time: number; user: string; hash: string } | undefined>;
  /** Whether the exchange has ever seen an account (`userRole` is `missing` until it has held funds). */
  accountExists(user: string, signal?: AbortSignal): Promise<boolean>;
  /** The spot tokens (read once, asked again after a failure). */
  spotTokens(signal?: AbortSignal): Promise<SpotToken[]>;
  /** An account's ledger from `startTime` (ms), oldest first, one page. */
  ledgerUpdates(user: string, startTime: number, signal?: AbortSignal): Promise<LedgerUpdate[]>;
};

/**
 * The perps exchange's HTTP API (`/info`, `/exchange`, `/explorer`) for one chain, its failures turned into the
 * domain's retryable errors: a timeout is REQUEST_TIMED_OUT, an unreachable exchange or an HTTP error RPC_HTTP_ERROR.
 */
export function createExchangeApi(options: { chainId: number; exchangeUrl: string; timeoutMs?: number }): ExchangeApi {
  const { chainId, exchangeUrl, timeoutMs = 10_000 } = options;
  const post = async (path: string, body: unknown, signal?: AbortSignal): Promise<Response> => {
    const timeout = AbortSignal.timeout(timeoutMs);
    try {
      return await fetch(`${exchangeUrl}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (error) {
      if (timeout.aborted)
        throw new UpstreamTimeoutError(`chain ${chainId}'s exchange did not answer ${path} in time`, error);
      throw new UpstreamFailureError(`chain ${chainId}'s exchange failed ${path}: ${String(error)}`, error);
    }
  };
  const json = async <T>(path: string, body: unknown, signal?: AbortSignal): Promise<T> => {
    const response = await post(path, body, signal);
    if (!response.ok)
      throw new UpstreamFailureError(
        `chain ${chainId}'s exchange answered ${path} with HTTP ${response.status}: ${(await response.text()).slice(0, 200)}`,
      );
    return (await response.json()) as T;
  };
  let tokens: Promise<SpotToken[]> | undefined;
  return {
    info: (body, signal) => json("/info", body, signal),
    exchange: (body) => json("/exchange", body),
    async txDetails(hash) {
      const response = await post("/explorer", { type: "txDetails", hash });
      if (response.status === 404) return undefined;
      if (!response.ok)
        throw new UpstreamFailureError(`chain ${chainId}'s exchange answered txDetails with HTTP ${response.status}`);
      return ((await response.json()) as { tx: { time: number; user: string; hash: string } }).tx;
    },
    accountExists: async (user, signal) =>
      (await json<{ role: string }>("/info", { type: "userRole", user }, signal)).role !== "missing",
    spotTokens(signal) {
      tokens ??= json<{ tokens: SpotToken[] }>("/info", { type: "spotMeta" }, signal).then((meta) => meta.tokens);
      tokens.catch(() => (tokens = undefined));
      return tokens;
    },
    ledgerUpdates: (user, startTime, signal) =>
      json<LedgerUpdate[]>("/info", { type: "userNonFundingLedgerUpdates", user, startTime }, signal),
  };
}
