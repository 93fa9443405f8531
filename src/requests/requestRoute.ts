import { formatAmount, parseDecimal } from "../domain/money.js";
import type { RequestView } from "../../schema/requestsQuery.js";

export type CurrencyObject = {
  chainId: number;
  address: string;
  symbol: string;
  name: string;
  decimals: number;
  metadata: { logoURI: string; verified: boolean; isNative: boolean };
};
export type Amount = {
  currency: CurrencyObject;
  amount: string;
  amountFormatted: string;
  amountUsd: string;
  minimumAmount: string;
};
export type RouteSide = { inputCurrency: Amount | null; outputCurrency: Amount | null; router: string };
export type RequestRoute = {
  /** A same-chain request (Send, Wrap, Unwrap, Same-chain Swap, a Call on one chain) has no destination side. */
  quoted: { origin: RouteSide; destination: RouteSide | undefined };
  actual: { rate: string; origin: RouteSide; destination: RouteSide | undefined };
  currencyIn: CurrencyObject;
  currencyOut: CurrencyObject;
  quotedIn: Amount;
  quotedOut: Amount;
  /** Deposited (else quoted) and received (else quoted) amounts, in the smallest unit. */
  deposited: bigint | null;
  received: bigint | null;
};

export type CurrencyLookup = (chainId: number, address: string) => CurrencyObject | undefined;

type StoredQuote = {
  details?: { currencyIn?: Amount; currencyOut?: Amount; rate?: string; timeEstimate?: number };
};

const ROUTER = "crossfill";
const USD_DECIMALS = 6;

/** A currency we know nothing more of than its chain and address (a request quoted by another deployment's config). */
function unknownCurrency(chainId: number, address: string): CurrencyObject {
  return {
    chainId,
    address,
    symbol: "",
    name: "",
    decimals: 0,
    metadata: { logoURI: "", verified: false, isNative: false },
  };
}

/** An Amount for `amount`, valued at the quote's USD price of the same currency (no price feed is read for history). */
export function amountLike(reference: Amount, amount: bigint): Amount {
  const quoted = BigInt(reference.amount);
  const quotedUsd = parseDecimal(reference.amountUsd.replace(/^-/, ""), USD_DECIMALS);
  const usd = quoted === 0n ? 0n : (quotedUsd * amount) / quoted;
  return {
    currency: reference.currency,
    amount: amount.toString(),
    amountFormatted: formatAmount(amount, reference.currency.decimals),
    amountUsd: formatAmount(usd, USD_DECIMALS),
    minimumAmount: amount.toString(),
  };
}

function rateOf(amountIn: bigint, decimalsIn: number, amountOut: bigint, decimalsOut: number): string {
  if (amountIn === 0n) return "0";
  return formatAmount(
    (amountOut * 10n ** BigInt(decimalsIn) * 10n ** 18n) / (amountIn * 10n ** BigInt(decimalsOut)),
    18,
  );
}

/**
 * The quoted and actual route of a request, with the spec's fallbacks: before any deposit `actual` is
 * `quoted`; with a deposit but no fill, `actual.origin.inputCurrency` is the deposited amount,
 * `actual.origin.outputCurrency` is null and the destination side stays quoted; once filled, the destination's
 * output is the filled amount and its input the quoted output. A same-chain request has no destination side
 * (quoted or actual): its origin side's output is the quoted output, then what was received.
 */
export function requestRoute(view: RequestView, currencyOf: CurrencyLookup): RequestRoute {
  const quote = (view.quote ?? {}) as StoredQuote;
  const currencyIn =
    quote.details?.currencyIn?.currency ??
    currencyOf(view.originChainId, view.originCurrency) ??
    unknownCurrency(view.originChainId, view.originCurrency);
  const currencyOut =
    quote.details?.currencyOut?.currency ??
    currencyOf(view.destinationChainId, view.destinationCurrency) ??
    unknownCurrency(view.destinationChainId, view.destinationCurrency);
  const fallback = (currency: CurrencyObject, amount: bigint): Amount => ({
    currency,
    amount: amount.toString(),
    amountFormatted: formatAmount(amount, currency.decimals),
    amountUsd: "0",
    minimumAmount: amount.toString(),
  });
  const quotedIn = quote.details?.currencyIn ?? fallback(currencyIn, view.amountIn);
  const quotedOut = quote.details?.currencyOut ?? {
    ...fallback(currencyOut, view.amountOut),
    minimumAmount: view.minimumAmountOut.toString(),
  };
  const sameChain = view.originChainId === view.destinationChainId;
  const quoted = sameChain
    ? { origin: { inputCurrency: quotedIn, outputCurrency: quotedOut, router: ROUTER }, destination: undefined }
    : {
        origin: { inputCurrency: quotedIn, outputCurrency: quotedIn, router: ROUTER },
        destination: { inputCurrency: quotedOut, outputCurrency: quotedOut, router: ROUTER },
      };
  const quotedRate =
    quote.details?.rate ?? rateOf(view.amountIn, currencyIn.decimals, view.amountOut, currencyOut.decimals);
  const originDeposits = view.deposits.filter((deposit) => deposit.chainId === view.originChainId && !deposit.reorg);
  const deposited =
    originDeposits.length > 0 ? originDeposits.reduce((sum, deposit) => sum + deposit.amount, 0n) : null;
  const received = view.fills.length > 0 ? view.fills.reduce((sum, fill) => sum + fill.amount, 0n) : null;

  let actual: RequestRoute["actual"];
  if (deposited === null) {
    actual = { rate: quotedRate, ...quoted };
  } else if (received === null) {
    actual = {
      rate: quotedRate,
      origin: { inputCurrency: amountLike(quotedIn, deposited), outputCurrency: null, router: ROUTER },
      destination: quoted.destination,
    };
  } else {
    const depositedAmount = amountLike(quotedIn, deposited);
    const receivedAmount = amountLike(quotedOut, received);
    const rate = rateOf(deposited, currencyIn.decimals, received, currencyOut.decimals);
    // One chain: the origin side is the whole route, its output what the recipient received.
    actual = sameChain
      ? {
          rate,
          origin: { inputCurrency: depositedAmount, outputCurrency: receivedAmount, router: ROUTER },
          destination: undefined,
        }
      : {
          rate,
          origin: { inputCurrency: depositedAmount, outputCurrency: depositedAmount, router: ROUTER },
          destination: { inputCurrency: quotedOut, outputCurrency: receivedAmount, router: ROUTER },
        };
  }
  return { quoted, actual, currencyIn, currencyOut, quotedIn, quotedOut, deposited, received };
}
