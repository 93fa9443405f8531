import { type ExchangeApi, LEDGER_PAGE, type LedgerUpdate } from "../../src/chains/hypevm/exchangeApi.js";
import { type ExchangeLedgerFactsOptions, exchangeLedgerFacts } from "../../src/chains/hypevm/exchangeLedgerFacts.js";
import type { PollerCursor, PollerSource, SourcePage } from "../poller/pollerSource.js";

export type ExchangeLedgerSourceOptions = ExchangeLedgerFactsOptions & {
  api: ExchangeApi;
  /** Where a chain never polled starts, milliseconds (the depository's first use). */
  startTimeMs: number;
};

/** The cursor: the last millisecond read and the hashes read in it (more may land in the same millisecond later). */
const cursorAt = (time: number, hashes: readonly string[]): PollerCursor => ({
  position: Math.floor(time / 1000),
  key: `${time}:${hashes.join(",")}`,
});

/**
 * The perps exchange's facts, read from the ledgers (`userNonFundingLedgerUpdates`) of the depository and the solver
 * after a cursor of (time, hashes read in that millisecond), each update read by `exchangeLedgerFacts` (deposits, the
 * solver's stored fills, the depository's stored refunds). A "block" is a second of the ledger, whose history never
 * changes (no reorg check).
 */
export function exchangeLedgerSource(options: ExchangeLedgerSourceOptions): PollerSource {
  const { api, startTimeMs } = options;
  const factsOf = exchangeLedgerFacts(options);
  const accounts = [options.depository, ...(options.solver ? [options.solver] : [])].map((a) => a.toLowerCase());

  return {
    async read(after, signal): Promise<SourcePage> {
      const [afterTime, afterHashes] = after ? after.key.split(":") : [String(startTimeMs), ""];
      const fromTime = Number(afterTime);
      const seen = new Set((afterHashes ?? "").split(",").filter(Boolean));
      const pages = await Promise.all(accounts.map((account) => api.ledgerUpdates(account, fromTime, signal)));
      // A full page may stop short of another account's: read no further than the earliest full page's end.
      const full = pages.filter((page) => page.length >= LEDGER_PAGE).map((page) => page.at(-1)!.time);
      const until = full.length ? Math.min(...full) : Infinity;
      const byHash = new Map<string, LedgerUpdate>();
      for (const update of pages.flat())
        if (update.time <= until && (update.time > fromTime || !seen.has(update.hash))) byHash.set(update.hash, update);
      const fresh = [...byHash.values()].sort((a, b) => a.time - b.time);
      const tokens = fresh.length ? await api.spotTokens(signal) : [];
      const facts = await factsOf(fresh, tokens);
      const last = fresh.at(-1);
      const cursor = last
        ? cursorAt(last.time, [
            ...(last.time === fromTime ? seen : []),
            ...fresh.filter((u) => u.time === last.time).map((u) => u.hash),
          ])
        : after;
      return {
        facts,
        cursor,
        head: Math.floor(Date.now() / 1000),
        // A full page may have more behind it (unless it held nothing new: reading it again would give the same).
        more: full.length > 0 && fresh.length > 0,
      };
    },
  };
}
