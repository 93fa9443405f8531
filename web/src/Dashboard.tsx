import { useEffect, useState } from "preact/hooks";
import { AnalyticsPage } from "./AnalyticsPage";
import { dashboardRequest } from "./dashboardRequest";
import { VIEWER } from "./dashboardQueries";
import type { ApiKey } from "./dashboardTypes";
import { IntegratorRequestsPage } from "./IntegratorRequestsPage";
import { KeysPage } from "./KeysPage";
import { sessionKey } from "./sessionKey";
import { SignInPage } from "./SignInPage";
import { WebhookPage } from "./WebhookPage";

const SECTIONS = [
  ["keys", "API keys"],
  ["requests", "Requests"],
  ["analytics", "Analytics"],
] as const;

/**
 * The signed-in integrator dashboard (`#/dashboard/<section>[/<key id>]`): sign-in first, then the integrator's
 * keys and webhooks, requests and analytics, all read with the signed-in key.
 */
export function Dashboard({ path }: { path: string }) {
  const [viewer, setViewer] = useState<ApiKey | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  // The key is read at every render: a request refused for a revoked key clears it, and the page signs out.
  const [, setRenders] = useState(0);
  const rerender = () => setRenders((count) => count + 1);
  const key = sessionKey.get();
  useEffect(() => sessionKey.watch(rerender), []);
  useEffect(() => {
    setViewer(undefined);
    if (!key) return;
    dashboardRequest<{ viewer: ApiKey }>(VIEWER).then(
      ({ viewer }) => (setViewer(viewer), setProblem(undefined)),
      (failure: Error) => setProblem(failure.message),
    );
  }, [key]);

  if (!key)
    return (
      <SignInPage
        onSignedIn={() => {
          location.hash = "#/dashboard/keys";
        }}
      />
    );
  const [section = "keys", argument] = path.split("/").filter(Boolean);
  const signOut = () => {
    location.hash = "#/dashboard";
    sessionKey.clear();
  };
  return (
    <main class="dashboard">
      <div class="signed-in">
        {viewer ? (
          <p>
            Signed in as <strong>{viewer.name ?? viewer.id}</strong> of integrator <strong>{viewer.integrator}</strong>
            {viewer.managesKeys ? " (manages keys)" : ""}
          </p>
        ) : (
          <p aria-busy={!problem} role={problem ? "alert" : undefined}>
            {problem ? `Could not sign in: ${problem}` : "Signing in…"}
          </p>
        )}
        <button type="button" onClick={signOut}>
          Sign out
        </button>
      </div>
      <nav aria-label="Dashboard" class="tabs">
        {SECTIONS.map(([id, label]) => (
          <a key={id} href={`#/dashboard/${id}`} aria-current={section === id ? "page" : undefined}>
            {label}
          </a>
        ))}
      </nav>
      {viewer &&
        (section === "requests" ? (
          <IntegratorRequestsPage />
        ) : section === "analytics" ? (
          <AnalyticsPage />
        ) : argument ? (
          <WebhookPage keyId={decodeURIComponent(argument)} viewer={viewer} />
        ) : (
          <KeysPage viewer={viewer} />
        ))}
    </main>
  );
}
