import { useState } from "preact/hooks";
import { GraphqlError } from "./GraphqlError";
import { graphqlRequest } from "./graphqlRequest";
import { VIEWER } from "./dashboardQueries";
import { sessionKey } from "./sessionKey";

/** The sign-in's words for a refusal: the API's 401 names the header (x-api-key), a person typed "an API key". */
function signInError(failure: Error): string {
  if (!(failure instanceof GraphqlError) || failure.code !== "UNAUTHORIZED") return failure.message;
  return /revoked/.test(failure.message)
    ? "this API key has been revoked: sign in with another of your integrator's keys."
    : "this is not a known API key: check it, or ask your operator for one.";
}

/** Sign-in with an API key of the integrator: checked with the API, then kept for this tab's session only. */
export function SignInPage({ onSignedIn }: { onSignedIn: () => void }) {
  const [key, setKey] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const value = key.trim();
    if (!value) return setError("Enter an API key.");
    setBusy(true);
    try {
      await graphqlRequest(VIEWER, {}, value);
      sessionKey.set(value);
      onSignedIn();
    } catch (failure) {
      setError(signInError(failure as Error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main>
      <h1>Integrator dashboard</h1>
      <p>
        Sign in with one of your integrator's API keys. It is kept in this browser tab only, until the tab is closed or
        you sign out. Any key shows your integrator's keys, webhooks, requests and analytics; creating and revoking keys
        needs a key your operator marked for management.
      </p>
      <form class="form" onSubmit={submit}>
        <label for="api-key">API key</label>
        <div class="row">
          <input
            id="api-key"
            type="password"
            autocomplete="off"
            spellcheck={false}
            placeholder="cf_…"
            value={key}
            onInput={(event) => setKey((event.target as HTMLInputElement).value)}
          />
          <button type="submit" disabled={busy}>
            Sign in
          </button>
        </div>
        {error && <p role="alert">Could not sign in: {error}</p>}
      </form>
    </main>
  );
}
