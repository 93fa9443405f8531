import { useEffect, useState } from "preact/hooks";
import { dashboardRequest } from "./dashboardRequest";
import { WEBHOOK_DELIVERIES } from "./dashboardQueries";
import type { WebhookDelivery } from "./dashboardTypes";
import { StatusBadge } from "./StatusBadge";

const REFRESH_MS = 2_000;
const SYMBOLS: Record<string, string> = { DELIVERED: "✓", PENDING: "…", FAILED: "✗", DISABLED: "⊘", RETRYING: "↻" };
const word = (status: string) => `${SYMBOLS[status] ?? "•"} ${status.toLowerCase()}`;

/** A key's delivery log, newest first, read again every 2 s: each delivery with every attempt, and replay. */
export function DeliveryLog({
  keyId,
  version,
  onReplay,
}: {
  keyId: string;
  version: number;
  onReplay?: (id: string) => void;
}) {
  const [deliveries, setDeliveries] = useState<WebhookDelivery[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    let current = true;
    const read = () =>
      dashboardRequest<{ webhookDeliveries: { edges: { node: WebhookDelivery }[] } }>(WEBHOOK_DELIVERIES, {
        apiKeyId: keyId,
      }).then(
        (answer) =>
          current && (setDeliveries(answer.webhookDeliveries.edges.map((edge) => edge.node)), setError(undefined)),
        (failure: Error) => current && setError(failure.message),
      );
    void read();
    const timer = setInterval(read, REFRESH_MS);
    return () => {
      current = false;
      clearInterval(timer);
    };
  }, [keyId, version]);

  return (
    <section aria-labelledby="log-title">
      <h2 id="log-title">Delivery log</h2>
      {error && <p role="alert">Could not read the log: {error}</p>}
      {deliveries?.length === 0 && <p>No deliveries yet.</p>}
      <ul class="cards deliveries">
        {deliveries?.map((delivery) => (
          <li key={delivery.id} class="card delivery" data-delivery-id={delivery.id}>
            <p>
              <strong>{delivery.test ? "Test event" : delivery.body.event}</strong>
              {delivery.body.data?.status && (
                <>
                  {" "}
                  → <StatusBadge status={delivery.body.data.status} />
                </>
              )}{" "}
              · delivery {delivery.id} ·{" "}
              <span class="delivery-status" data-status={delivery.status}>
                {word(delivery.status)}
              </span>
            </p>
            <p class="meta">
              {delivery.test ? "" : <span class="hash">request {delivery.requestId} · </span>}
              event {delivery.eventId} · {delivery.attemptLog.length} attempt
              {delivery.attemptLog.length === 1 ? "" : "s"}
              {delivery.nextAttemptAt ? ` · next ${new Date(delivery.nextAttemptAt).toLocaleTimeString()}` : ""}
            </p>
            {delivery.attemptLog.length > 0 && (
              <table class="attempts">
                <caption class="visually-hidden">Attempts of delivery {delivery.id}</caption>
                <thead>
                  <tr>
                    <th scope="col">Attempt</th>
                    <th scope="col">Outcome</th>
                    <th scope="col">Status code</th>
                    <th scope="col">Latency</th>
                    <th scope="col">Error</th>
                    <th scope="col">At</th>
                  </tr>
                </thead>
                <tbody>
                  {delivery.attemptLog.map((attempt) => (
                    <tr key={`${attempt.generation}-${attempt.attempt}`}>
                      <td>
                        {attempt.generation > 0 ? `replay ${attempt.generation}, ` : ""}#{attempt.attempt}
                      </td>
                      <td>{word(attempt.outcome)}</td>
                      <td>{attempt.statusCode ?? "-"}</td>
                      <td>{attempt.latencyMs === null ? "-" : `${attempt.latencyMs} ms`}</td>
                      <td>{attempt.error ?? "-"}</td>
                      <td>
                        <time dateTime={attempt.attemptedAt}>{new Date(attempt.attemptedAt).toLocaleTimeString()}</time>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {onReplay && delivery.status !== "PENDING" && (
              <button type="button" onClick={() => onReplay(delivery.id)}>
                Replay delivery {delivery.id}
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
