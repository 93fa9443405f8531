import { useEffect, useState } from "preact/hooks";
import { ChainSelect } from "./ChainSelect";
import { graphqlRequest } from "./graphqlRequest";
import { liveClient } from "./liveClient";
import { CHAIN_UPDATED, EXPLORER_REQUESTS } from "./queries";
import { RequestTable } from "./RequestTable";
import { useChains } from "./useChains";
import type { RequestSummary } from "./types";

const PAGE = 15;
const STATUSES = ["waiting", "depositing", "pending", "submitted", "success", "failure", "refund"];

type Query = { term?: string; status: string; chainId: string; after?: string };
const sameQuery = (a: Query, b: Query) =>
  a.term === b.term && a.status === b.status && a.chainId === b.chainId && a.after === b.after;

/** The clock the ages ("12 s ago") are read against, ticking each second. */
function useNow(): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * The explorer's first screen: the newest requests as a table, narrowed by status and chain, paged, and read again
 * when any chain's requests change. With a term (`#/search/<term>`), its matches; a single match opens its page.
 */
export function SearchPage({ term }: { term?: string }) {
  const chains = useChains();
  const now = useNow();
  const [status, setStatus] = useState("");
  const [chainId, setChainId] = useState("");
  // The first request id of each page after the first: Older pushes, Newer pops.
  const [pages, setPages] = useState<string[]>([]);
  const query: Query = { term, status, chainId, after: pages.at(-1) };
  // What was read, and for which query: a new query never shows the previous one's list under its heading.
  const [loaded, setLoaded] = useState<{ query: Query; requests: RequestSummary[] } | undefined>();
  const read = loaded && sameQuery(loaded.query, query) ? loaded.requests : undefined;
  const requests = read?.slice(0, PAGE);
  const hasOlder = (read?.length ?? 0) > PAGE;
  const [error, setError] = useState<string | undefined>();
  // Bumped when a chain's requests change: the page is read again.
  const [changes, setChanges] = useState(0);

  // A new term or filter starts at the first page.
  useEffect(() => setPages([]), [term]);
  const narrow = (set: (value: string) => void) => (value: string) => {
    setPages([]);
    set(value);
  };

  useEffect(() => {
    let current = true;
    graphqlRequest<{ explorerRequests: RequestSummary[] }>(EXPLORER_REQUESTS, {
      term: term ?? null,
      status: status ? [status] : null,
      chainId: chainId ? Number(chainId) : null,
      after: query.after ?? null,
      first: PAGE + 1,
    })
      .then(({ explorerRequests }) => {
        if (!current) return;
        const filtered = status || chainId || query.after;
        if (term && !filtered && explorerRequests.length === 1) location.replace(`#/request/${explorerRequests[0].id}`);
        else {
          setLoaded({ query, requests: explorerRequests });
          setError(undefined);
        }
      })
      .catch((failure: Error) => current && setError(failure.message));
    return () => {
      current = false;
    };
  }, [term, status, chainId, query.after, changes]);

  // The list follows every chain's updates; a burst of them reads it once.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const changed = () => {
      clearTimeout(timer);
      timer = setTimeout(() => setChanges((count) => count + 1), 300);
    };
    const stops = chains.map((chain) =>
      liveClient().subscribe(
        { query: CHAIN_UPDATED, variables: { chainId: chain.id } },
        { next: changed, error: () => {}, complete: () => {} },
      ),
    );
    return () => {
      clearTimeout(timer);
      stops.forEach((stop) => stop());
    };
  }, [chains]);

  const narrowed = Boolean(status || chainId);
  return (
    <main class="wide">
      <section aria-labelledby="list-title" aria-busy={requests === undefined}>
        <h1 id="list-title">{term ? `Requests matching “${term}”` : "Recent requests"}</h1>
        <div class="filters">
          <label>
            Status
            <select value={status} onChange={(event) => narrow(setStatus)((event.target as HTMLSelectElement).value)}>
              <option value="">Any</option>
              {STATUSES.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </label>
          <ChainSelect label="Chain" chains={chains} value={chainId} onChange={narrow(setChainId)} />
        </div>
        {error && <p role="alert">Could not load requests: {error}</p>}
        {requests?.length === 0 && (
          <p>{term || narrowed ? "No request matches." : "No requests yet: the README's walk-through makes one."}</p>
        )}
        {requests && requests.length > 0 && <RequestTable requests={requests} chains={chains} now={now} />}
        <nav class="pager" aria-label="Pages">
          <button type="button" disabled={pages.length === 0} onClick={() => setPages(pages.slice(0, -1))}>
            ← Newer
          </button>
          <button
            type="button"
            disabled={!hasOlder}
            onClick={() => requests && setPages([...pages, requests[requests.length - 1].id])}
          >
            Older →
          </button>
        </nav>
      </section>
    </main>
  );
}
