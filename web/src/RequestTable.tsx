import { ageInWords } from "./ageInWords";
import { CopyButton } from "./CopyButton";
import { formatUsd } from "./formatUsd";
import { shortHash } from "./shortHash";
import { StatusBadge } from "./StatusBadge";
import type { Chain, RequestSummary } from "./types";
import { receivedAmount } from "./receivedAmount.js";

// Each is also its cell's data-label: the label a phone shows before the value, where the columns are gone.
const COLUMNS = ["Request", "Status", "Route", "Amount in", "Amount out", "Sender", "Recipient", "Age"];

type Side = { amountFormatted: string; amountUsd?: string; currency: { symbol: string } } | null | undefined;

function Amount({ side }: { side: Side }) {
  if (!side) return <>—</>;
  return (
    <>
      {side.amountFormatted} {side.currency.symbol}
      <div class="usd">{formatUsd(side.amountUsd)}</div>
    </>
  );
}

function Wallet({ address, role }: { address: string; role: string }) {
  return (
    <span class="wallet">
      <a class="hash" href={`#/search/${encodeURIComponent(address)}`} title={address}>
        {shortHash(address, 4)}
      </a>
      <CopyButton value={address} label={`${role} ${address}`} />
    </span>
  );
}

/**
 * Requests as explorers list them: status, route, amounts with USD, sender and recipient (short, with copy), age;
 * a child request (a further payment of a quote) links to its parent. On a phone each row is a card.
 */
export function RequestTable({ requests, chains, now }: { requests: RequestSummary[]; chains: Chain[]; now: number }) {
  const name = (id: number) => chains.find((chain) => chain.id === id)?.displayName ?? `chain ${id}`;
  return (
    <table class="requests">
      <thead>
        <tr>
          {COLUMNS.map((column) => (
            <th scope="col" key={column}>
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {requests.map((request) => (
          <tr key={request.id} data-request={request.id}>
            <td data-label="Request">
              <a href={`#/request/${request.id}`} class="hash" title={request.id}>
                {shortHash(request.id)}
              </a>
              {request.parentRequestId && (
                <div class="parent">
                  child of{" "}
                  <a href={`#/request/${request.parentRequestId}`} class="hash" title={request.parentRequestId}>
                    {shortHash(request.parentRequestId)}
                  </a>
                </div>
              )}
            </td>
            <td data-label="Status">
              <StatusBadge status={request.status} />
            </td>
            <td data-label="Route">
              {name(request.originChainId)} → {name(request.destinationChainId)}
            </td>
            <td data-label="Amount in">
              <Amount side={request.route.actual.origin.inputCurrency} />
            </td>
            <td data-label="Amount out">
              <Amount side={receivedAmount(request.route.actual)} />
            </td>
            <td data-label="Sender">
              <Wallet address={request.user} role="sender" />
            </td>
            <td data-label="Recipient">
              <Wallet address={request.recipient} role="recipient" />
            </td>
            <td data-label="Age">
              <time dateTime={request.createdAt} title={new Date(request.createdAt).toLocaleString()}>
                {ageInWords(request.createdAt, now)}
              </time>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
