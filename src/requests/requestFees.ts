import { formatAmount } from "../domain/money.js";
import type { RequestView } from "../../schema/requestsQuery.js";
import { requestAppFees } from "./requestAppFees.js";
import { type Amount, type CurrencyObject, type RequestRoute, amountLike } from "./requestRoute.js";

export type FeeComponentValue = { usd: string; amount: string; amountFormatted: string };
export type FeePhase = Record<"swap" | "execution" | "platform" | "app" | "sponsored", FeeComponentValue>;

type StoredQuote = {
  fees?: Partial<Record<"relayerGas" | "relayerService" | "app" | "subsidized", Amount>>;
  details?: { expandedPriceImpact?: Record<string, { usd: string }> };
  /** The fill's gas the quote priced, in the destination's native smallest unit (quotes since issue 27). */
  fillGas?: { amount: string };
};

const negate = (value: string) => (value === "0" ? "0" : value.startsWith("-") ? value.slice(1) : `-${value}`);
const amountOf = (amount: Amount | undefined) => (amount ? BigInt(amount.amount) : 0n);

/** A component of `signed` units of the input currency (negative: a cost to the user), `usd` when known. */
function component(signed: bigint, currency: CurrencyObject, usd: string): FeeComponentValue {
  return { usd, amount: signed.toString(), amountFormatted: formatAmount(signed, currency.decimals) };
}

/**
 * The v3 record's `fees` phases, in the input currency. `quoted` as the quote priced them (the sponsored amount is
 * the sponsored total, a gain). `actual`, once the request is filled, from what happened: `execution` the fill's gas
 * as paid on the destination (converted at the quote's rate for its gas), `app` what the recipients earned,
 * `sponsored` what the sponsor paid, and `platform` the rest of what the user gave up — the deposit, less the
 * value of what was received at the quote's terms, less those — so the components add up to what the request cost.
 * Before a fill the actual phase is the quoted one, as the route's actual side falls back to its quoted one.
 */
export function requestFees(
  view: Pick<RequestView, "quote" | "fills" | "status" | "tradeType" | "amountIn">,
  route: Pick<RequestRoute, "currencyIn" | "quotedIn" | "quotedOut" | "deposited" | "received">,
): { quoted: FeePhase; actual: FeePhase } {
  const quote = (view.quote ?? {}) as StoredQuote;
  const fees = quote.fees ?? {};
  const impact = quote.details?.expandedPriceImpact ?? {};
  const { currencyIn } = route;
  const gas = amountOf(fees.relayerGas);
  const platform = amountOf(fees.relayerService);
  const app = amountOf(fees.app);
  const sponsored = amountOf(fees.subsidized);
  const quotedUsd = (amount: Amount | undefined, impactUsd: string | undefined) =>
    impactUsd ?? (amount ? negate(amount.amountUsd) : "0");
  const quoted: FeePhase = {
    swap: component(0n, currencyIn, quotedUsd(undefined, impact.swap?.usd)),
    execution: component(-gas, currencyIn, quotedUsd(fees.relayerGas, impact.execution?.usd)),
    platform: component(-platform, currencyIn, quotedUsd(fees.relayerService, impact.relay?.usd)),
    app: component(-app, currencyIn, quotedUsd(fees.app, impact.app?.usd)),
    sponsored: component(sponsored, currencyIn, impact.sponsored?.usd ?? fees.subsidized?.amountUsd ?? "0"),
  };
  if (route.received === null || view.fills.length === 0) return { quoted, actual: quoted };

  const quotedFillGas = BigInt(quote.fillGas?.amount ?? "0");
  const gasPaid = view.fills.reduce((sum, fill) => sum + (fill.txFee ?? 0n), 0n);
  // Quotes stored before the fill's gas was kept have no rate for it: their execution stays as quoted.
  const execution = quotedFillGas > 0n ? (gasPaid * gas) / quotedFillGas : gas;
  const earned = requestAppFees(view, route.deposited, currencyIn.decimals).actual.reduce(
    (sum, fee) => sum + BigInt(fee.amount),
    0n,
  );
  const sponsorPaid = view.status === "success" ? sponsored : 0n;
  // What the quote gave for its input after fees, applied to what was received: the received output's worth in input.
  const quotedIn = BigInt(route.quotedIn.amount);
  const quotedOut = BigInt(route.quotedOut.amount);
  const netIn = quotedIn - gas - platform - app + sponsored;
  const receivedWorth = quotedOut === 0n ? 0n : (route.received * netIn) / quotedOut;
  const rest = (route.deposited ?? quotedIn) - receivedWorth - execution - earned + sponsorPaid;
  const usd = (signed: bigint) => {
    const value = amountLike(route.quotedIn, signed < 0n ? -signed : signed).amountUsd;
    return signed < 0n ? negate(value) : value;
  };
  return {
    quoted,
    actual: {
      swap: component(0n, currencyIn, "0"),
      execution: component(-execution, currencyIn, usd(-execution)),
      platform: component(-rest, currencyIn, usd(-rest)),
      app: component(-earned, currencyIn, usd(-earned)),
      sponsored: component(sponsorPaid, currencyIn, usd(sponsorPaid)),
    },
  };
}
