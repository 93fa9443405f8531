import { useEffect, useState } from "preact/hooks";
import { dashboardRequest } from "./dashboardRequest";
import { API_KEYS, CREATE_API_KEY, RENAME_API_KEY, REVOKE_API_KEY } from "./dashboardQueries";
import type { ApiKey } from "./dashboardTypes";
import { NewKeyNotice } from "./NewKeyNotice";
import { useFocusAfterRender } from "./useFocusAfterRender";
import { useFocusOnShow } from "./useFocusOnShow";

/** The integrator's API keys: list, and for a managing key create (shown once), rename and revoke. */
export function KeysPage({ viewer }: { viewer: ApiKey }) {
  const heading = useFocusOnShow<HTMLHeadingElement>();
  const [keys, setKeys] = useState<ApiKey[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [created, setCreated] = useState<{ name: string; key: string } | undefined>();
  const [name, setName] = useState("");
  const [renaming, setRenaming] = useState<{ id: string; name: string } | undefined>();
  const [confirmRevoke, setConfirmRevoke] = useState<string | undefined>();
  // The control a keyboard user pressed often goes away (Revoke → its confirmation, Save → the list): the focus
  // moves to where they carry on, a `data-focus` control of a key's card.
  const focusAfterRender = useFocusAfterRender();
  const setFocusNext = (next: { id: string; control: string }) =>
    focusAfterRender(`[data-key-id="${CSS.escape(next.id)}"] [data-focus="${next.control}"]`);

  const load = () =>
    dashboardRequest<{ apiKeys: ApiKey[] }>(API_KEYS).then(
      ({ apiKeys }) => setKeys(apiKeys),
      (failure: Error) => setError(failure.message),
    );
  useEffect(() => void load(), []);

  /** Runs a change, then reads the list again; a refusal is shown. */
  const change = async (run: () => Promise<unknown>) => {
    setError(undefined);
    try {
      await run();
    } catch (failure) {
      setError((failure as Error).message);
    }
    await load();
  };

  const create = (event: Event) => {
    event.preventDefault();
    return change(async () => {
      const answer = await dashboardRequest<{ createApiKey: { key: string; apiKey: { name: string } } }>(
        CREATE_API_KEY,
        { name },
      );
      setCreated({ name: answer.createApiKey.apiKey.name, key: answer.createApiKey.key });
      setName("");
    });
  };
  const rename = (event: Event) => {
    event.preventDefault();
    const target = renaming;
    if (!target) return;
    return change(async () => {
      await dashboardRequest(RENAME_API_KEY, target);
      setRenaming(undefined);
      setFocusNext({ id: target.id, control: "rename" });
    });
  };
  const revoke = (id: string) =>
    change(async () => {
      await dashboardRequest(REVOKE_API_KEY, { id });
      setConfirmRevoke(undefined);
      setFocusNext({ id, control: "heading" });
    });

  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title" tabIndex={-1} ref={heading}>
        API keys
      </h1>
      {error && <p role="alert">{error}</p>}
      {created && (
        <NewKeyNotice
          name={created.name}
          secret={created.key}
          onDone={() => {
            setCreated(undefined);
            // Back where the key was asked for (the notice and its buttons are gone).
            document.getElementById("new-key-name")?.focus();
          }}
        />
      )}
      {viewer.managesKeys ? (
        <form class="form" onSubmit={create}>
          <label for="new-key-name">New key's name</label>
          <div class="row">
            <input
              id="new-key-name"
              maxLength={64}
              required
              value={name}
              onInput={(event) => setName((event.target as HTMLInputElement).value)}
            />
            <button type="submit">Create key</button>
          </div>
        </form>
      ) : (
        <p class="note">This key may not create, rename or revoke keys: your operator marks the keys that may.</p>
      )}
      {keys === undefined && !error && <p aria-busy="true">Loading keys…</p>}
      <ul class="cards">
        {keys?.map((key) => (
          <li key={key.id} class="card" data-key-id={key.id}>
            <h2 tabIndex={-1} data-focus="heading">
              {key.name ?? "(no name)"}
              {key.current ? " (this key)" : ""}
            </h2>
            <dl class="facts">
              <dt>Id</dt>
              <dd class="hash">{key.id}</dd>
              <dt>State</dt>
              <dd class="key-state">
                {key.revokedAt ? `✗ revoked ${new Date(key.revokedAt).toLocaleString()}` : "✓ active"}
              </dd>
              <dt>Created</dt>
              <dd>
                <time dateTime={key.createdAt}>{new Date(key.createdAt).toLocaleString()}</time>
              </dd>
              <dt>Flags</dt>
              <dd>
                {[key.elevated ? "elevated rate limits" : "standard rate limits", key.managesKeys && "manages keys"]
                  .filter(Boolean)
                  .join(", ")}
              </dd>
              <dt>Webhook</dt>
              <dd>
                {key.webhook
                  ? `${key.webhook.enabled ? "✓ enabled" : "✗ disabled"} · ${key.webhook.url}`
                  : "not configured"}
              </dd>
            </dl>
            <div class="actions">
              <a href={`#/dashboard/keys/${encodeURIComponent(key.id)}`}>Webhook of {key.name ?? key.id}</a>
              {viewer.managesKeys && !key.revokedAt && (
                <button
                  type="button"
                  data-focus="rename"
                  onClick={() => {
                    setRenaming({ id: key.id, name: key.name ?? "" });
                    setFocusNext({ id: key.id, control: "new-name" });
                  }}
                >
                  Rename {key.name ?? key.id}
                </button>
              )}
              {viewer.managesKeys && !key.revokedAt && !key.current && confirmRevoke !== key.id && (
                <button
                  type="button"
                  data-focus="revoke"
                  onClick={() => {
                    setConfirmRevoke(key.id);
                    // The safe choice first: a second Enter keeps the key.
                    setFocusNext({ id: key.id, control: "keep" });
                  }}
                >
                  Revoke {key.name ?? key.id}
                </button>
              )}
            </div>
            {confirmRevoke === key.id && (
              <div class="confirm" role="group" aria-label="Confirm revocation">
                <p>Requests with this key are refused at once. This cannot be undone.</p>
                <button type="button" onClick={() => revoke(key.id)}>
                  Yes, revoke {key.name ?? key.id}
                </button>
                <button
                  type="button"
                  data-focus="keep"
                  onClick={() => {
                    setConfirmRevoke(undefined);
                    setFocusNext({ id: key.id, control: "revoke" });
                  }}
                >
                  Keep it
                </button>
              </div>
            )}
            {renaming?.id === key.id && (
              <form class="form" onSubmit={rename}>
                <label for={`rename-${key.id}`}>New name</label>
                <div class="row">
                  <input
                    id={`rename-${key.id}`}
                    data-focus="new-name"
                    maxLength={64}
                    required
                    value={renaming.name}
                    onInput={(event) => setRenaming({ id: key.id, name: (event.target as HTMLInputElement).value })}
                  />
                  <button type="submit">Save name</button>
                  <button
                    type="button"
                    onClick={() => {
                      setRenaming(undefined);
                      setFocusNext({ id: key.id, control: "rename" });
                    }}
                  >
                    Cancel
                  </button>
                </div>
              </form>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
