import { NO_ORDER } from "../../schema/chainFacts.js";
import { parseExchangeAmount } from "../../src/chains/hypevm/exchangeAmount.js";
import { PERPS_USDC_CURRENCY } from "../../src/chains/hypevm/hypevmFamily.js";
import type { Polled, PollerCursor, PollerSource, SourcePage } from "../poller/pollerSource.js";
import type { DepositFact } from "../../schema/chainFacts.js";

/** Perps USDC moves at 8 decimals on the exchange's ledger. */
const PERPS_USDC_DECIMALS = 8;
/** The most updates the exchange answers at once: a full page means more may follow. */
const LEDGER_PAGE = 500;

export type ExchangeLedgerSourceOptions = {
  exchangeUrl: string;
  /** The service's account, whose incoming transfers are deposits. */
  depository: string;
  /** Where a chain never polled starts, milliseconds (the depository's first use). */
  startTimeMs: number;
  /** The order a sender's transfer with this nonce was authorized for (the nonce mapping); undefined when none. */
  orderOf(sender: string, nonce: bigint): Promise<string | undefined>;
  timeoutMs?: number;
};

type LedgerUpdate = { time: number; hash: string; delta: Record<string, unknown> & { type: string } };
type SpotToken = { name: string; tokenId: string; weiDecimals: number };

/** A cursor is the last update read: its time (ms) and hash; its position is that time in seconds, the chain's "block". */
const cursorOf = (update: LedgerUpdate): PollerCursor => ({
  position: Math.floor(update.time / 1000),
  key: `${update.time}:${update.hash}`,
});

/**
 * The perps exchange's deposits, read from the depository's ledger (`userNonFundingLedgerUpdates`) after a cursor of
 * (time, hash). Each transfer to the depository from another account (`send`, `spotTransfer`, `internalTransfer`) is a
 * deposit fact: depositor = the signer, currency = perps USDC (`""` destination dex, `usdSend`) or the spot token's id
 * (`"spot"`; another dex's currency carries its name's hex), amount in the token's base units, order id from the
 * nonce mapping of (signer, nonce), or none (a transfer without a mapping; `internalTransfer` carries no nonce). A
 * transfer's hash is its transaction; a "block" is a second of the ledger, whose history never changes (no reorg check).
 * Transfers from the depository (refunds) are not read yet.
 */
export function exchangeLedgerSource(options: ExchangeLedgerSourceOptions): PollerSource {
  const { exchangeUrl, depository, startTimeMs, orderOf, timeoutMs = 10_000 } = options;
  const self = depository.toLowerCase();
  const info = async <T>(body: unknown, signal: AbortSignal): Promise<T> => {
    const response = await fetch(`${exchangeUrl}/info`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
    });
    if (!response.ok) throw new Error(`exchange /info answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as T;
  };
  let tokens: Promise<SpotToken[]> | undefined;
  const spotTokens = (signal: AbortSignal) => {
    tokens ??= info<{ tokens: SpotToken[] }>({ type: "spotMeta" }, signal).then((meta) => meta.tokens);
    // A failed read is asked again next time.
    tokens.catch(() => (tokens = undefined));
    return tokens;
  };

  /** The currency and base-unit amount a transfer moves to the depository; undefined for what no deposit can be. */
  const movement = async (
    delta: LedgerUpdate["delta"],
    signal: AbortSignal,
  ): Promise<{ currency: string; amount: bigint | undefined } | undefined> => {
    if (delta.type === "internalTransfer")
      return { currency: PERPS_USDC_CURRENCY, amount: parseExchangeAmount(String(delta.usdc), PERPS_USDC_DECIMALS) };
    const token = (await spotTokens(signal)).find((t) => t.name === delta.token);
    const dex = delta.type === "send" ? String(delta.destinationDex) : "spot";
    if (dex === "")
      return delta.token === "USDC"
        ? { currency: PERPS_USDC_CURRENCY, amount: parseExchangeAmount(String(delta.amount), PERPS_USDC_DECIMALS) }
        : undefined;
    if (!token) return undefined;
    const suffix = dex === "spot" ? "" : Buffer.from(dex, "utf8").toString("hex");
    return {
      currency: `${token.tokenId.toLowerCase()}${suffix}`,
      amount: parseExchangeAmount(String(delta.amount), token.weiDecimals),
    };
  };

  return {
    async read(after, signal): Promise<SourcePage> {
      const [afterTime, afterHash] = after ? after.key.split(":") : [String(startTimeMs), undefined];
      const fromTime = Number(afterTime);
      const updates = await info<LedgerUpdate[]>(
        { type: "userNonFundingLedgerUpdates", user: depository, startTime: fromTime },
        signal,
      );
      // The cursor's own update and those before it in the same millisecond were read already.
      const cursorIndex = afterHash === undefined ? -1 : updates.findIndex((u) => u.hash === afterHash);
      const fresh = updates.filter((u, index) => u.time > fromTime || (u.time === fromTime && index > cursorIndex));
      const deposits: Polled<DepositFact>[] = [];
      for (const update of fresh) {
        const { delta } = update;
        const incoming =
          ["send", "spotTransfer", "internalTransfer"].includes(delta.type) &&
          String(delta.destination).toLowerCase() === self &&
          String(delta.user).toLowerCase() !== self;
        if (!incoming) continue;
        const moved = await movement(delta, signal);
        // An amount the ledger writes with more decimals than its token has is no deposit we can account for.
        if (!moved || moved.amount === undefined || moved.amount === 0n) continue;
        const { amount } = moved;
        const sender = String(delta.user);
        const nonce = typeof delta.nonce === "number" ? BigInt(delta.nonce) : undefined;
        const orderId = nonce === undefined ? undefined : await orderOf(sender, nonce);
        const second = Math.floor(update.time / 1000);
        deposits.push({
          txHash: update.hash,
          position: 0,
          orderId: orderId ?? NO_ORDER,
          depositor: sender,
          currency: moved.currency,
          amount,
          blockNumber: BigInt(second),
          blockHash: update.hash,
          timestamp: BigInt(second),
          txFrom: sender,
          txFee: 0n,
        });
      }
      const last = fresh.at(-1);
      return {
        facts: { deposits, fills: [], withdrawals: [] },
        cursor: last ? cursorOf(last) : after,
        head: Math.floor(Date.now() / 1000),
        // A full page may have more behind it (unless it held nothing new: reading it again would give the same).
        more: updates.length >= LEDGER_PAGE && fresh.length > 0,
      };
    },
  };
}
