import { useEffect, useState } from "preact/hooks";
import { dashboardRequest } from "./dashboardRequest";
import { API_KEYS, REPLAY_WEBHOOK_DELIVERY, SEND_TEST_WEBHOOK, SET_WEBHOOK } from "./dashboardQueries";
import type { ApiKey } from "./dashboardTypes";
import { DeliveryLog } from "./DeliveryLog";
import { useFocusAfterRender } from "./useFocusAfterRender";
import { useFocusOnShow } from "./useFocusOnShow";

type HeaderRow = { name: string; value: string };

/**
 * One key's webhook: enable or disable, its URL (https to a public address; the server validates), its custom
 * headers (values are never read back: saving without replacing them keeps them), a test event, and the delivery
 * log with every attempt and replay.
 */
export function WebhookPage({ keyId, viewer }: { keyId: string; viewer: ApiKey }) {
  const heading = useFocusOnShow<HTMLHeadingElement>();
  const [key, setKey] = useState<ApiKey | null | undefined>();
  const [url, setUrl] = useState("");
  const [enabled, setEnabled] = useState(true);
  const [replaceHeaders, setReplaceHeaders] = useState(false);
  const [headers, setHeaders] = useState<HeaderRow[]>([]);
  const [message, setMessage] = useState<{ text: string; alert: boolean } | undefined>();
  const [logVersion, setLogVersion] = useState(0);
  const focusAfterRender = useFocusAfterRender();
  const mayChange = viewer.managesKeys || viewer.id === keyId;

  const load = () =>
    dashboardRequest<{ apiKeys: ApiKey[] }>(API_KEYS).then(({ apiKeys }) => {
      const found = apiKeys.find((candidate) => candidate.id === keyId) ?? null;
      setKey(found);
      setUrl(found?.webhook?.url ?? "");
      setEnabled(found?.webhook?.enabled ?? true);
    });
  useEffect(() => void load(), [keyId]);

  const run = async (action: () => Promise<string>) => {
    setMessage(undefined);
    try {
      setMessage({ text: await action(), alert: false });
    } catch (failure) {
      setMessage({ text: (failure as Error).message, alert: true });
    }
  };
  const save = (event: Event) => {
    event.preventDefault();
    return run(async () => {
      await dashboardRequest(SET_WEBHOOK, {
        apiKeyId: keyId,
        url: url.trim(),
        enabled,
        // Omitted, the endpoint keeps its headers; given, they replace them.
        headers: replaceHeaders ? headers.filter((header) => header.name.trim()) : null,
      });
      setReplaceHeaders(false);
      setHeaders([]);
      await load();
      return "Webhook saved.";
    });
  };
  const sendTest = () =>
    run(async () => {
      await dashboardRequest(SEND_TEST_WEBHOOK, { apiKeyId: keyId });
      setLogVersion((version) => version + 1);
      return "Test event queued: it appears in the delivery log below within seconds.";
    });
  const replay = (id: string) =>
    run(async () => {
      await dashboardRequest(REPLAY_WEBHOOK_DELIVERY, { id, apiKeyId: keyId });
      setLogVersion((version) => version + 1);
      return `Delivery ${id} replayed: its new attempts follow in the log.`;
    });
  const setHeader = (index: number, change: Partial<HeaderRow>) =>
    setHeaders(headers.map((header, at) => (at === index ? { ...header, ...change } : header)));

  if (key === undefined) return <p aria-busy="true">Loading…</p>;
  if (key === null) return <p role="alert">No key {keyId} of your integrator.</p>;
  const title = key.name ?? key.id;
  return (
    <section aria-labelledby="webhook-title">
      <p>
        <a href="#/dashboard/keys">← API keys</a>
      </p>
      <h1 id="webhook-title" tabIndex={-1} ref={heading}>
        Webhook of {title}
      </h1>
      <p>
        Every status change of a request quoted with this key is posted to its URL as{" "}
        <code>request.status.updated</code>, signed with the key (<code>X-Signature-SHA256</code>).
        {key.webhook?.disabledReason ? ` Disabled: ${key.webhook.disabledReason}.` : ""}
      </p>
      {message && <p role={message.alert ? "alert" : "status"}>{message.text}</p>}
      {mayChange && !key.revokedAt ? (
        <form class="form" onSubmit={save}>
          <label for="webhook-url">URL</label>
          <input
            id="webhook-url"
            type="url"
            required
            placeholder="https://hooks.example.com/crossfill"
            value={url}
            onInput={(event) => setUrl((event.target as HTMLInputElement).value)}
          />
          <label class="check">
            <input
              type="checkbox"
              checked={enabled}
              onChange={(event) => setEnabled((event.target as HTMLInputElement).checked)}
            />{" "}
            Enabled
          </label>
          <fieldset>
            <legend>Custom headers</legend>
            <p class="note">
              Sent with every webhook. Now:{" "}
              {key.webhook?.headerNames.length ? key.webhook.headerNames.join(", ") : "none"} (values are never shown).
            </p>
            <label class="check">
              <input
                type="checkbox"
                checked={replaceHeaders}
                onChange={(event) => setReplaceHeaders((event.target as HTMLInputElement).checked)}
              />{" "}
              Replace the custom headers with these
            </label>
            {replaceHeaders && (
              <>
                {headers.map((header, index) => (
                  <div class="row header-row" key={index}>
                    <input
                      aria-label={`Header ${index + 1} name`}
                      placeholder="Name"
                      value={header.name}
                      onInput={(event) => setHeader(index, { name: (event.target as HTMLInputElement).value })}
                    />
                    <input
                      aria-label={`Header ${index + 1} value`}
                      placeholder="Value"
                      value={header.value}
                      onInput={(event) => setHeader(index, { value: (event.target as HTMLInputElement).value })}
                    />
                    <button
                      type="button"
                      onClick={() => {
                        setHeaders(headers.filter((_, at) => at !== index));
                        // The row's button is gone when it was the last: carry on at the next row, or Add header.
                        focusAfterRender(
                          index < headers.length - 1
                            ? `[aria-label="Header ${index + 1} name"]`
                            : "[data-focus=add-header]",
                        );
                      }}
                      aria-label={`Remove header ${index + 1}`}
                    >
                      Remove
                    </button>
                  </div>
                ))}
                <button
                  type="button"
                  data-focus="add-header"
                  onClick={() => {
                    setHeaders([...headers, { name: "", value: "" }]);
                    focusAfterRender(`[aria-label="Header ${headers.length + 1} name"]`);
                  }}
                >
                  Add header
                </button>
              </>
            )}
          </fieldset>
          <div class="actions">
            <button type="submit">Save webhook</button>
            {key.webhook?.enabled && (
              <button type="button" onClick={sendTest}>
                Send test event
              </button>
            )}
          </div>
        </form>
      ) : (
        <dl class="facts">
          <dt>URL</dt>
          <dd>{key.webhook?.url ?? "not configured"}</dd>
          <dt>State</dt>
          <dd>{key.webhook ? (key.webhook.enabled ? "✓ enabled" : "✗ disabled") : "-"}</dd>
        </dl>
      )}
      <DeliveryLog keyId={keyId} version={logVersion} onReplay={mayChange ? replay : undefined} />
    </section>
  );
}
