import type { IntegratorRequest } from "./dashboardTypes";
import { toCsv } from "./toCsv";
import { receivedAmount } from "./receivedAmount.js";

const HEADER = [
  "id",
  "status",
  "createdAt",
  "originChainId",
  "destinationChainId",
  "amountIn",
  "currencyIn",
  "amountInUsd",
  "amountOut",
  "currencyOut",
  "user",
  "recipient",
  "referrer",
  "failReason",
  "depositTxHashes",
  "fillTxHashes",
];

/** The requests page's CSV export: one row per request, hashes joined with spaces. */
export function requestsCsv(requests: readonly IntegratorRequest[]): string {
  return toCsv([
    HEADER,
    ...requests.map((request) => {
      const input = request.route.actual.origin.inputCurrency;
      const output = receivedAmount(request.route.actual);
      return [
        request.id,
        request.status,
        request.createdAt,
        request.originChainId,
        request.destinationChainId,
        input?.amountFormatted,
        input?.currency.symbol,
        input?.amountUsd,
        output?.amountFormatted,
        output?.currency.symbol,
        request.user,
        request.recipient,
        request.referrer,
        request.failReason,
        request.deposits.map((deposit) => deposit.txHash).join(" "),
        request.fills.map((fill) => fill.txHash).join(" "),
      ];
    }),
  ]);
}
