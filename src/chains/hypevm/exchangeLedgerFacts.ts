import { type DepositFact, type FillFact, NO_ORDER, type WithdrawalFact } from "../chainFacts.js";
import type { LedgerUpdate, SpotToken } from "./exchangeApi.js";
import { exchangeTransferId } from "./exchangeTransferId.js";
import { ledgerTransfer } from "./ledgerTransfer.js";

/** A fact as the ledger shows it, without the chain id (the caller's). */
type OnLedger<Fact> = Omit<Fact, "chainId">;

/** What some ledger updates are to the service. */
export type ExchangeLedgerFacts = {
  deposits: OnLedger<DepositFact>[];
  fills: OnLedger<FillFact>[];
  withdrawals: OnLedger<WithdrawalFact>[];
};

export type ExchangeLedgerFactsOptions = {
  /** The service's account, whose incoming transfers are deposits and whose stored refunds are withdrawals. */
  depository: string;
  /** The solver's account, whose transfers out are fills (none: the chain is no destination). */
  solver?: string;
  /** The order a sender's transfer with this nonce was authorized for (the nonce mapping); undefined when none. */
  orderOf(sender: string, nonce: bigint): Promise<string | undefined>;
  /** The request the solver's transfer with this nonce fills (its stored fill); undefined when none. */
  fillOf?(solver: string, nonce: bigint): Promise<string | undefined>;
  /** The order whose stored refund (a request's or an unmatched deposit's) is the depository's transfer stored under
   * one of these hashes. */
  refundOf?(txHashes: readonly string[]): Promise<string | undefined>;
};

/**
 * How ledger updates of the perps exchange read as Crossfill's facts, in their order, shared by the poller and the
 * manual index so both record a transfer alike. A transfer to the depository from another account is a deposit: depositor = the
 * signer, order id from the nonce mapping of (signer, nonce), or none (NO_ORDER). A transfer of the depository's that
 * is a stored refund (by the exchange's hash, or by its nonce under the id the refund is stored by until the refund
 * job reads that hash) is that order's withdrawal; any other transfer out of the depository is nothing (it refunds
 * nothing). A transfer of the solver's whose nonce is a stored fill's is that request's fill: the ledger names no
 * request, so a transfer the service did not sign is none. A transfer's hash is its transaction; its "block" is the
 * second of the ledger it is in.
 */
export function exchangeLedgerFacts(options: ExchangeLedgerFactsOptions) {
  const { orderOf, fillOf, refundOf } = options;
  const self = options.depository.toLowerCase();
  const payer = options.solver?.toLowerCase();
  const factOf = async (update: LedgerUpdate, tokens: readonly SpotToken[]) => {
    const transfer = ledgerTransfer(update, tokens);
    if (!transfer) return undefined;
    const second = BigInt(Math.floor(update.time / 1000));
    const located = {
      txHash: update.hash,
      position: 0,
      blockNumber: second,
      blockHash: update.hash,
      timestamp: second,
    };
    const { sender, nonce, destination, currency, amount } = transfer;
    if (destination === self && sender !== self) {
      const orderId = nonce === undefined ? undefined : await orderOf(sender, nonce);
      return {
        kind: "deposits" as const,
        fact: {
          ...located,
          orderId: orderId ?? NO_ORDER,
          depositor: sender,
          currency,
          amount,
          txFrom: sender,
          txFee: 0n,
        },
      };
    }
    if (sender === self && refundOf) {
      // Stored under the exchange's hash once the refund job read it, under the depository's (signer, nonce) before.
      const orderId = await refundOf(
        nonce === undefined ? [update.hash] : [update.hash, exchangeTransferId(self, Number(nonce))],
      );
      return orderId === undefined
        ? undefined
        : { kind: "withdrawals" as const, fact: { ...located, orderId, recipient: destination, currency, amount } };
    }
    if (sender === payer && nonce !== undefined && fillOf) {
      const requestId = await fillOf(sender, nonce);
      return requestId
        ? {
            kind: "fills" as const,
            fact: { ...located, requestId, currency, recipient: destination, amount, txFee: 0n },
          }
        : undefined;
    }
    return undefined;
  };
  return async (updates: readonly LedgerUpdate[], tokens: readonly SpotToken[]): Promise<ExchangeLedgerFacts> => {
    const facts: ExchangeLedgerFacts = { deposits: [], fills: [], withdrawals: [] };
    for (const update of updates) {
      const read = await factOf(update, tokens);
      if (read?.kind === "deposits") facts.deposits.push(read.fact);
      else if (read?.kind === "fills") facts.fills.push(read.fact);
      else if (read?.kind === "withdrawals") facts.withdrawals.push(read.fact);
    }
    return facts;
  };
}
