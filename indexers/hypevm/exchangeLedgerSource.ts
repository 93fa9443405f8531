import { type ExchangeApi, LEDGER_PAGE, type LedgerUpdate } from "../../src/chains/hypevm/exchangeApi.js";
import { ledgerTransfer } from "../../src/chains/hypevm/ledgerTransfer.js";
import { exchangeTransferId } from "../../src/chains/hypevm/exchangeTransferId.js";
import { NO_ORDER } from "../../schema/chainFacts.js";
import type { DepositFact, FillFact, WithdrawalFact } from "../../schema/chainFacts.js";
import type { Polled, PollerCursor, PollerSource, SourcePage } from "../poller/pollerSource.js";

export type ExchangeLedgerSourceOptions = {
  api: ExchangeApi;
  /** The service's account, whose incoming transfers are deposits. */
  depository: string;
  /** The solver's account, whose transfers out are fills (none: the chain is no destination). */
  solver?: string;
  /** Where a chain never polled starts, milliseconds (the depository's first use). */
  startTimeMs: number;
  /** The order a sender's transfer with this nonce was authorized for (the nonce mapping); undefined when none. */
  orderOf(sender: string, nonce: bigint): Promise<string | undefined>;
  /** The request the solver's transfer with this nonce fills (its stored fill); undefined when none. */
  fillOf?(solver: string, nonce: bigint): Promise<string | undefined>;
  /** The order whose stored refund (a request's or an unmatched deposit's) is the depository's transfer stored under
   * one of these hashes. */
  refundOf?(txHashes: readonly string[]): Promise<string | undefined>;
};

/** The cursor: the last millisecond read and the hashes read in it (more may land in the same millisecond later). */
const cursorAt = (time: number, hashes: readonly string[]): PollerCursor => ({
  position: Math.floor(time / 1000),
  key: `${time}:${hashes.join(",")}`,
});

/**
 * The perps exchange's facts, read from the ledgers (`userNonFundingLedgerUpdates`) of the depository and the solver
 * after a cursor of (time, hashes read in that millisecond). Each transfer to the depository from another account
 * (`send`, `spotTransfer`, `internalTransfer`) is a deposit fact: depositor = the signer, the currency and amount it
 * moved (ledgerTransfer), order id from the nonce mapping of (signer, nonce), or none (a transfer without a mapping;
 * `internalTransfer` carries no nonce). Each transfer of the solver's whose nonce is a stored fill's is that request's
 * fill fact. Each transfer of the depository's that is a stored refund (by the exchange's hash, or by its nonce under the
 * id the refund is stored by until the refund job reads that hash) is that order's withdrawal fact, which
 * confirms the refund; any other transfer out of the depository is no fact (it refunds nothing). A transfer's hash is
 * its transaction; a "block" is a second of the ledger, whose history never changes (no reorg check).
 */
export function exchangeLedgerSource(options: ExchangeLedgerSourceOptions): PollerSource {
  const { api, depository, solver, startTimeMs, orderOf, fillOf, refundOf } = options;
  const self = depository.toLowerCase();
  const payer = solver?.toLowerCase();
  const accounts = payer ? [self, payer] : [self];

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
      const deposits: Polled<DepositFact>[] = [];
      const fills: Polled<FillFact>[] = [];
      const withdrawals: Polled<WithdrawalFact>[] = [];
      for (const update of fresh) {
        const transfer = ledgerTransfer(update, tokens);
        if (!transfer) continue;
        const second = BigInt(Math.floor(update.time / 1000));
        const located = {
          txHash: update.hash,
          position: 0,
          blockNumber: second,
          blockHash: update.hash,
          timestamp: second,
        };
        const { sender, nonce } = transfer;
        if (transfer.destination === self && sender !== self) {
          const orderId = nonce === undefined ? undefined : await orderOf(sender, nonce);
          deposits.push({
            ...located,
            orderId: orderId ?? NO_ORDER,
            depositor: sender,
            currency: transfer.currency,
            amount: transfer.amount,
            txFrom: sender,
            txFee: 0n,
          });
        } else if (sender === self && refundOf) {
          // Stored under the exchange's hash once the refund job read it, under the depository's (signer, nonce) before.
          const orderId = await refundOf(
            nonce === undefined ? [update.hash] : [update.hash, exchangeTransferId(self, Number(nonce))],
          );
          if (orderId !== undefined)
            withdrawals.push({
              ...located,
              orderId,
              recipient: transfer.destination,
              currency: transfer.currency,
              amount: transfer.amount,
            });
        } else if (sender === payer && nonce !== undefined && fillOf) {
          const requestId = await fillOf(sender, nonce);
          if (requestId)
            fills.push({
              ...located,
              requestId,
              currency: transfer.currency,
              recipient: transfer.destination,
              amount: transfer.amount,
              txFee: 0n,
            });
        }
      }
      const last = fresh.at(-1);
      const cursor = last
        ? cursorAt(last.time, [
            ...(last.time === fromTime ? seen : []),
            ...fresh.filter((u) => u.time === last.time).map((u) => u.hash),
          ])
        : after;
      return {
        facts: { deposits, fills, withdrawals },
        cursor,
        head: Math.floor(Date.now() / 1000),
        // A full page may have more behind it (unless it held nothing new: reading it again would give the same).
        more: full.length > 0 && fresh.length > 0,
      };
    },
  };
}
