import { useEffect, useRef, useState } from "preact/hooks";
import { CopyButton } from "./CopyButton";
import { formatUsd } from "./formatUsd.js";
import { formatUnits } from "./formatUnits";
import { graphqlRequest } from "./graphqlRequest";
import { liveClient } from "./liveClient";
import { REQUEST, REQUEST_UPDATED } from "./queries";
import { reasonInWords } from "./reasonInWords";
import { shortHash } from "./shortHash";
import { StatusBadge } from "./StatusBadge";
import { stepInWords } from "./stepInWords";
import { timelineEntries } from "./timelineEntries";
import { TransactionLink } from "./TransactionLink";
import { useChains } from "./useChains";
import type { Chain, RequestDetail } from "./types";
import { receivedAmount } from "./receivedAmount.js";

const FEES = ["execution", "platform", "app", "swap", "sponsored"] as const;

/** An id, hash or address in full, with a button to copy it. */
function Copyable({ value, label }: { value: string; label: string }) {
  return (
    <span class="copyable">
      <span class="hash">{value}</span> <CopyButton value={value} label={`${label} ${value}`} />
    </span>
  );
}

/** What a `waiting` request still needs: the amount, where it goes, and until when. */
function PaymentDue({ request, origin }: { request: RequestDetail; origin: Chain | undefined }) {
  const currency = request.currencyIn;
  const amount = currency ? `${formatUnits(request.amountIn, currency.decimals)} ${currency.symbol}` : request.amountIn;
  const chainName = origin?.displayName ?? `chain ${request.originChainId}`;
  const to = request.depositAddress?.address ?? origin?.depository;
  return (
    <section aria-labelledby="pay-title" class="notice pay">
      <h2 id="pay-title">To pay</h2>
      <dl class="facts">
        <dt>Amount</dt>
        <dd>{amount}</dd>
        <dt>On</dt>
        <dd>{chainName}</dd>
        <dt>To</dt>
        <dd>
          {to ? <Copyable value={to} label={request.depositAddress ? "deposit address" : "depository"} /> : "unknown"}
          {!request.depositAddress && <div>the depository contract, naming the order below</div>}
        </dd>
        {!request.depositAddress && (
          <>
            <dt>Order id</dt>
            <dd>
              <Copyable value={request.orderId} label="order id" />
            </dd>
          </>
        )}
        <dt>Before</dt>
        <dd>
          <time dateTime={request.deadline}>{new Date(request.deadline).toLocaleString()}</time> (later payments are
          refunded)
        </dd>
      </dl>
    </section>
  );
}

const readRequest = (id: string) =>
  graphqlRequest<{ request: RequestDetail | null }>(REQUEST, { id }).then((data) => data.request);

/** One request, kept current by the requestUpdated subscription: no reload needed from waiting to success. */
export function RequestPage({ id }: { id: string }) {
  const chains = useChains();
  const [request, setRequest] = useState<RequestDetail | null | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [liveError, setLiveError] = useState<string | undefined>();
  const heading = useRef<HTMLHeadingElement>(null);
  const loaded = request !== undefined && request !== null;
  // Keyboard and screen-reader users land on the request once it is shown, not on a live update.
  useEffect(() => {
    if (loaded) heading.current?.focus();
  }, [id, loaded]);

  useEffect(() => {
    let current = true;
    const load = () =>
      readRequest(id)
        .then((read) => current && setRequest(read))
        .catch((failure: Error) => current && setError(failure.message));
    setRequest(undefined);
    setLiveError(undefined);
    load();
    // Read again on every (re)connection too: an update sent while the socket was down is not replayed.
    const client = liveClient();
    const offConnected = client.on("connected", load);
    const stop = client.subscribe<{ requestUpdated: { request: RequestDetail } }>(
      { query: REQUEST_UPDATED, variables: { id } },
      {
        next: (result) => current && result.data && setRequest(result.data.requestUpdated.request),
        error: () => current && setLiveError("Live updates stopped; reload the page to see later changes."),
        complete: () => {},
      },
    );
    return () => {
      current = false;
      offConnected();
      stop();
    };
  }, [id]);

  if (error)
    return (
      <main>
        <p role="alert">Could not load the request: {error}</p>
      </main>
    );
  if (request === undefined)
    return (
      <main aria-busy="true">
        <p>Loading request…</p>
      </main>
    );
  if (request === null)
    return (
      <main>
        <h1>Request not found</h1>
        <p>
          No request has the id <span class="hash">{id}</span>.
        </p>
      </main>
    );

  const chain = (chainId: number) => chains.find((candidate) => candidate.id === chainId);
  const step = (event: RequestDetail["statusEvents"][number]) =>
    stepInWords(request.statusEvents, request.statusEvents.indexOf(event));
  const chainName = (chainId: number) => chain(chainId)?.displayName ?? `chain ${chainId}`;
  const input = request.route.actual.origin.inputCurrency;
  const output = receivedAmount(request.route.actual);
  const failedFill = request.failedTransaction?.txHash;
  // What was sent back (signed refunds in a known currency); a refunded request shows that, not the fee table of a
  // fill that never happened.
  const refunded = request.refunds.filter((refund) => refund.amount !== null && refund.currency);
  const unfilled = request.fills.length === 0 && ["failure", "refund"].includes(request.status);
  return (
    <main>
      <h1 ref={heading} tabIndex={-1}>
        Request <span class="hash">{shortHash(request.id)}</span>
      </h1>
      <dl class="facts">
        <dt>Id</dt>
        <dd>
          <Copyable value={request.id} label="request id" />
        </dd>
        <dt>Type</dt>
        <dd class="request-type">{request.requestType}</dd>
        <dt>Created</dt>
        <dd>
          <time dateTime={request.createdAt}>{new Date(request.createdAt).toLocaleString()}</time>
        </dd>
        <dt>Deadline</dt>
        <dd class="deadline">
          <time dateTime={request.deadline}>{new Date(request.deadline).toLocaleString()}</time>
        </dd>
      </dl>
      <p aria-live="polite" class="current-status">
        Status: <StatusBadge status={request.status} />
      </p>
      {liveError && <p role="status">{liveError}</p>}
      {request.failReason && (
        <p class="reason">
          Failed: {reasonInWords(request.failReason)} (<code>{request.failReason}</code>)
        </p>
      )}

      {request.parentRequestId && (
        <p class="parent">
          A further payment of request{" "}
          <a class="hash" href={`#/request/${request.parentRequestId}`}>
            {request.parentRequestId}
          </a>
          , which was already paid: this one is sent back.
        </p>
      )}
      {request.status === "waiting" && <PaymentDue request={request} origin={chain(request.originChainId)} />}
      {request.status === "refund" && refunded.length > 0 && (
        <p class="came-back">
          Came back:{" "}
          {refunded
            .map((refund) => `${formatUnits(refund.amount!, refund.currency!.decimals)} ${refund.currency!.symbol}`)
            .join(" + ")}{" "}
          to <span class="hash">{refunded[0].recipient}</span>
        </p>
      )}
      {request.supersededByRequestId && (
        <p class="superseded">
          This quote was regenerated for the same deposit address: the payment is followed by{" "}
          <a class="hash" href={`#/request/${request.supersededByRequestId}`}>
            {request.supersededByRequestId}
          </a>
          .
        </p>
      )}
      <section aria-labelledby="route-title">
        <h2 id="route-title">Route</h2>
        <dl class="route">
          <dt>From</dt>
          <dd>
            {chainName(request.originChainId)}
            {input && ` · ${input.amountFormatted} ${input.currency.symbol} (${formatUsd(input.amountUsd)})`}
            <div>
              <Copyable value={request.user} label="sender" />
            </div>
          </dd>
          {request.depositAddress && (
            <>
              <dt>Deposit address</dt>
              <dd>
                {request.depositAddress.type === "strict" ? "Strict" : "Open"}
                <div>
                  <Copyable value={request.depositAddress.address} label="deposit address" />
                </div>
              </dd>
            </>
          )}
          <dt>To</dt>
          <dd>
            {chainName(request.destinationChainId)}
            {output && ` · ${output.amountFormatted} ${output.currency.symbol} (${formatUsd(output.amountUsd)})`}
            <div>
              <Copyable value={request.recipient} label="recipient" />
            </div>
          </dd>
        </dl>
      </section>

      <section aria-labelledby="tx-title">
        <h2 id="tx-title">Transactions</h2>
        {request.deposits.length + request.fills.length === 0 && !failedFill && <p>None yet.</p>}
        <ul class="transactions">
          {request.deposits.map((deposit) => (
            <TransactionLink
              key={deposit.txHash}
              chain={chain(deposit.chainId)}
              txHash={deposit.txHash}
              label={deposit.reorg ? "Deposit (gone: reorged out or replaced)" : "Deposit"}
            />
          ))}
          {request.fills.map((fill) => (
            <TransactionLink key={fill.txHash} chain={chain(fill.chainId)} txHash={fill.txHash} label="Fill" />
          ))}
          {failedFill && (
            <TransactionLink chain={chain(request.destinationChainId)} txHash={failedFill} label="Failed fill" />
          )}
        </ul>
      </section>

      {request.refunds.length > 0 && (
        <section aria-labelledby="refunds-title">
          <h2 id="refunds-title">Refunds</h2>
          <ul class="refunds">
            {request.refunds.map((refund, index) => {
              const symbol = refund.currency?.symbol ?? "";
              const amount = refund.amount ?? refund.deposited;
              return (
                <li key={index}>
                  Refund {refund.status}: {refund.currency ? formatUnits(amount, refund.currency.decimals) : amount}{" "}
                  {symbol} to <span class="hash">{refund.recipient}</span> because{" "}
                  {reasonInWords(refund.reason).toLowerCase()}
                  {refund.txHash && (
                    <ul>
                      <TransactionLink chain={chain(refund.chainId)} txHash={refund.txHash} label="Refund" />
                    </ul>
                  )}
                </li>
              );
            })}
          </ul>
        </section>
      )}

      {!unfilled && (
        <section aria-labelledby="fees-title">
          <h2 id="fees-title">Fees</h2>
          <p>Negative is a cost to the user.</p>
          <table class="fees">
            <tbody>
              {FEES.map((name) => (
                <tr key={name}>
                  <th scope="row">{name}</th>
                  <td>
                    {request.fees.actual[name].amountFormatted} {request.fees.currency.symbol}
                  </td>
                  <td>{formatUsd(request.fees.actual[name].usd)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}

      <section aria-labelledby="timeline-title">
        <h2 id="timeline-title">Timeline</h2>
        <ol class="timeline">
          {timelineEntries(request.statusEvents, request.deposits).map((entry) =>
            entry.kind === "status" ? (
              <li key={entry.event.id}>
                <time dateTime={entry.at}>{new Date(entry.at).toLocaleString()}</time>{" "}
                <StatusBadge status={entry.event.status} />
                {entry.event.failReason && ` — ${reasonInWords(entry.event.failReason)}`}
                {entry.event.refundFailReason && ` — refund: ${reasonInWords(entry.event.refundFailReason)}`}
                {step(entry.event) && <span class="took"> · {step(entry.event)}</span>}
              </li>
            ) : (
              <li key={`reorg-${entry.txHash}`} class="reorg">
                {entry.at ? <time dateTime={entry.at}>{new Date(entry.at).toLocaleString()}</time> : "Time unknown"}{" "}
                <strong>Reorg:</strong> deposit <span class="hash">{entry.txHash}</span> {entry.reason}
                {entry.blockNumber !== undefined && ` (was in block ${entry.blockNumber})`}
              </li>
            ),
          )}
        </ol>
      </section>
    </main>
  );
}
