import { useEffect, useRef, useState } from "preact/hooks";
import { graphqlRequest } from "./graphqlRequest";
import { liveClient } from "./liveClient";
import { CHAIN_UPDATED, EXPLORER_REQUESTS } from "./queries";
import { RequestList } from "./RequestList";
import { useChains } from "./useChains";
import type { RequestSummary } from "./types";

const RECENT = 10;

/**
 * The explorer's first screen: one search box (what the listing's `term` takes) and the newest requests, refreshed
 * when any chain's requests change. With a term (`#/search/<term>`), its matches; a single match opens its page.
 */
export function SearchPage({ term }: { term?: string }) {
  const chains = useChains();
  // What was read, and for which term: a new term never shows the previous term's list under its heading.
  const [loaded, setLoaded] = useState<{ term?: string; requests: RequestSummary[] } | undefined>();
  const requests = loaded && loaded.term === term ? loaded.requests : undefined;
  const [error, setError] = useState<string | undefined>();
  const [input, setInput] = useState(term ?? "");

  // Bumped when a chain's requests change: the list is read again.
  const [changes, setChanges] = useState(0);

  // The box follows a new term (back, forward, a link), never its first render: that would wipe what a fast
  // typist entered before the effect ran.
  const shownTerm = useRef(term);
  useEffect(() => {
    if (shownTerm.current === term) return;
    shownTerm.current = term;
    setInput(term ?? "");
  }, [term]);

  useEffect(() => {
    let current = true;
    graphqlRequest<{ explorerRequests: RequestSummary[] }>(EXPLORER_REQUESTS, { term: term ?? null, first: RECENT })
      .then(({ explorerRequests }) => {
        if (!current) return;
        if (term && explorerRequests.length === 1) location.replace(`#/request/${explorerRequests[0].id}`);
        else {
          setLoaded({ term, requests: explorerRequests });
          setError(undefined);
        }
      })
      .catch((failure: Error) => current && setError(failure.message));
    return () => {
      current = false;
    };
  }, [term, changes]);

  // The recent list follows every chain's updates; a burst of them reads it once.
  useEffect(() => {
    if (term) return;
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
  }, [term, chains]);

  const submit = (event: Event) => {
    event.preventDefault();
    const value = input.trim();
    if (value) location.hash = `#/search/${encodeURIComponent(value)}`;
  };

  return (
    <main>
      <form role="search" onSubmit={submit} class="search">
        <label for="term">Search requests</label>
        <div class="row">
          <input
            id="term"
            type="search"
            value={input}
            onInput={(event) => setInput((event.target as HTMLInputElement).value)}
            placeholder="Request id, transaction hash, wallet or deposit address"
            autocomplete="off"
            spellcheck={false}
          />
          <button type="submit">Search</button>
        </div>
      </form>
      <section aria-labelledby="list-title" aria-busy={requests === undefined}>
        <h2 id="list-title">{term ? `Requests matching “${term}”` : "Recent requests"}</h2>
        {error && <p role="alert">Could not load requests: {error}</p>}
        {requests?.length === 0 && <p>{term ? "No request matches." : "No requests yet."}</p>}
        {requests && <RequestList requests={requests} chains={chains} />}
      </section>
    </main>
  );
}
