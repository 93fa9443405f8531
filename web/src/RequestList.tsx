import { StatusBadge } from "./StatusBadge";
import type { Chain, RequestSummary } from "./types";

/** Requests as a list: each links to its page, with status, route and amount in words. */
export function RequestList({ requests, chains }: { requests: RequestSummary[]; chains: Chain[] }) {
  const name = (id: number) => chains.find((chain) => chain.id === id)?.displayName ?? `chain ${id}`;
  return (
    <ul class="requests">
      {requests.map((request) => {
        const input = request.route.actual.origin.inputCurrency;
        return (
          <li key={request.id}>
            <a href={`#/request/${request.id}`} class="hash">
              {request.id}
            </a>
            <div class="meta">
              <StatusBadge status={request.status} /> {name(request.originChainId)} → {name(request.destinationChainId)}
              {input ? ` · ${input.amountFormatted} ${input.currency.symbol}` : ""} ·{" "}
              <time dateTime={request.createdAt}>{new Date(request.createdAt).toLocaleString()}</time>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
