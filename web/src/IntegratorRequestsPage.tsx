import { useEffect, useRef, useState } from "preact/hooks";
import { ChainSelect } from "./ChainSelect";
import { dashboardLiveClient } from "./dashboardLiveClient";
import { dashboardRequest } from "./dashboardRequest";
import { API_KEYS, INTEGRATOR_REQUESTS, INTEGRATOR_REQUEST_UPDATED } from "./dashboardQueries";
import type { ApiKey, IntegratorRequest } from "./dashboardTypes";
import { EMPTY_FILTER_FORM, type RequestFilterForm, integratorRequestFilter } from "./integratorRequestFilter";
import { requestsCsv } from "./requestsCsv";
import { StatusBadge } from "./StatusBadge";
import { useChains } from "./useChains";
import { useFocusOnShow } from "./useFocusOnShow";

const PAGE_SIZE = 20;
// The listing's own page limit; the export reads the filtered set page by page, at most this many rows.
const EXPORT_PAGE = 50;
const EXPORT_MAX = 10_000;
// Every status the explorer shows, in the order a request moves through them.
const STATUSES = ["waiting", "depositing", "pending", "submitted", "success", "failure", "refund"];
// Live changes re-read the page at most once per this many ms: each read spends the key's listing budget (5 a second).
const REFRESH_MS = 1_000;

type Page = {
  edges: { node: IntegratorRequest }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  totalCount: number | null;
};

/**
 * The integrator's requests with the listing's filters, cursor paging and a CSV export of the filtered set; live:
 * new requests and status changes show without a reload.
 */
export function IntegratorRequestsPage() {
  const heading = useFocusOnShow<HTMLHeadingElement>();
  const chains = useChains();
  const [keys, setKeys] = useState<ApiKey[] | undefined>();
  const [form, setForm] = useState<RequestFilterForm>(EMPTY_FILTER_FORM);
  const [applied, setApplied] = useState<RequestFilterForm>(EMPTY_FILTER_FORM);
  // Cursors of the pages before this one (paging back), and this page's.
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  // The page read, with what it was read for: a page of another filter or cursor is never shown as this one.
  const [loaded, setLoaded] = useState<{ query: string; page: Page } | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [exporting, setExporting] = useState<string | undefined>();
  // Bumped to read the shown page again (live changes), keeping it on screen until the new one arrives.
  const [refreshes, setRefreshes] = useState(0);
  const refreshTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [liveStopped, setLiveStopped] = useState(false);

  useEffect(() => {
    dashboardRequest<{ apiKeys: ApiKey[] }>(API_KEYS).then(
      ({ apiKeys }) => setKeys(apiKeys),
      (failure: Error) => setError(failure.message),
    );
  }, []);
  const after = cursors[cursors.length - 1];
  const query = JSON.stringify([applied, after]);
  const page = loaded?.query === query ? loaded.page : undefined;

  // The listing does not wait for the keys: they only fill the key picker.
  useEffect(() => {
    let current = true;
    dashboardRequest<{ requests: Page }>(INTEGRATOR_REQUESTS, {
      filter: integratorRequestFilter(applied),
      first: PAGE_SIZE,
      after,
    }).then(
      ({ requests }) => current && (setLoaded({ query, page: requests }), setError(undefined)),
      (failure: Error) => current && setError(failure.message),
    );
    return () => {
      current = false;
    };
  }, [query, refreshes]);

  // A change shows at once on its row; the page is then read again (throttled), so new requests appear and the
  // filter, count and order hold. Every (re)connection reads again too: changes sent while it was down are not replayed.
  useEffect(() => {
    const client = dashboardLiveClient();
    if (!client) return;
    let current = true;
    const refresh = () => {
      refreshTimer.current ??= setTimeout(() => {
        refreshTimer.current = undefined;
        if (current) setRefreshes((count) => count + 1);
      }, REFRESH_MS);
    };
    const offConnected = client.on("connected", refresh);
    const stop = client.subscribe<{ requestUpdated: { request: IntegratorRequest } }>(
      { query: INTEGRATOR_REQUEST_UPDATED },
      {
        next: (result) => {
          if (!current || !result.data) return;
          const node = result.data.requestUpdated.request;
          setLoaded(
            (shown) =>
              shown && {
                ...shown,
                page: {
                  ...shown.page,
                  edges: shown.page.edges.map((edge) => (edge.node.id === node.id ? { node } : edge)),
                },
              },
          );
          refresh();
        },
        error: () => current && setLiveStopped(true),
        complete: () => current && setLiveStopped(true),
      },
    );
    return () => {
      current = false;
      clearTimeout(refreshTimer.current);
      refreshTimer.current = undefined;
      offConnected();
      stop();
    };
  }, []);

  const set = (change: Partial<RequestFilterForm>) => setForm({ ...form, ...change });
  const value = (event: Event) => (event.target as HTMLInputElement).value;
  const chainName = (id: number) => chains.find((chain) => chain.id === id)?.displayName ?? `chain ${id}`;

  const apply = (event: Event) => {
    event.preventDefault();
    setApplied(form);
    setCursors([null]);
  };
  const reset = () => {
    setForm(EMPTY_FILTER_FORM);
    setApplied(EMPTY_FILTER_FORM);
    setCursors([null]);
  };
  const exportCsv = async () => {
    const rows: IntegratorRequest[] = [];
    let cursor: string | null = null;
    try {
      do {
        setExporting(`Exporting… ${rows.length} requests read`);
        const { requests }: { requests: Page } = await dashboardRequest<{ requests: Page }>(INTEGRATOR_REQUESTS, {
          filter: integratorRequestFilter(applied),
          first: EXPORT_PAGE,
          after: cursor,
        });
        rows.push(...requests.edges.map((edge) => edge.node));
        cursor = requests.pageInfo.hasNextPage ? requests.pageInfo.endCursor : null;
      } while (cursor && rows.length < EXPORT_MAX);
      const link = document.createElement("a");
      link.href = URL.createObjectURL(new Blob([requestsCsv(rows)], { type: "text/csv" }));
      link.download = `crossfill-requests-${new Date().toISOString().slice(0, 19).replaceAll(":", "")}.csv`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
      setExporting(
        `Exported ${rows.length} requests${cursor ? ` (the first ${EXPORT_MAX}: narrow the filter for the rest)` : ""}.`,
      );
    } catch (failure) {
      setExporting(`Export failed: ${(failure as Error).message}`);
    }
  };

  return (
    <section aria-labelledby="requests-title">
      <h1 id="requests-title" tabIndex={-1} ref={heading}>
        Requests
      </h1>
      <form class="form filters" onSubmit={apply} aria-label="Filter requests">
        <fieldset>
          <legend>Status</legend>
          <div class="row">
            {STATUSES.map((status) => (
              <label class="check" key={status}>
                <input
                  type="checkbox"
                  checked={form.statuses.includes(status)}
                  onChange={(event) =>
                    set({
                      statuses: (event.target as HTMLInputElement).checked
                        ? [...form.statuses, status]
                        : form.statuses.filter((other) => other !== status),
                    })
                  }
                />{" "}
                {status}
              </label>
            ))}
          </div>
        </fieldset>
        <div class="grid">
          <ChainSelect
            label="Origin chain"
            chains={chains}
            value={form.originChainId}
            onChange={(originChainId) => set({ originChainId })}
          />
          <ChainSelect
            label="Destination chain"
            chains={chains}
            value={form.destinationChainId}
            onChange={(destinationChainId) => set({ destinationChainId })}
          />
          <label>
            Currency in (symbols)
            <input
              value={form.currencyIn}
              placeholder="ETH, USDC"
              onInput={(event) => set({ currencyIn: value(event) })}
            />
          </label>
          <label>
            Currency out (symbols)
            <input value={form.currencyOut} onInput={(event) => set({ currencyOut: value(event) })} />
          </label>
          <label>
            Created from
            <input type="datetime-local" value={form.from} onInput={(event) => set({ from: value(event) })} />
          </label>
          <label>
            Created to
            <input type="datetime-local" value={form.to} onInput={(event) => set({ to: value(event) })} />
          </label>
          <label>
            Referrer
            <input value={form.referrer} onInput={(event) => set({ referrer: value(event) })} />
          </label>
          <label>
            API key
            <select value={form.apiKey} onChange={(event) => set({ apiKey: value(event) })}>
              <option value="">All keys of the integrator</option>
              {keys?.map((key) => (
                <option key={key.id} value={key.id}>
                  {key.name ?? key.id}
                </option>
              ))}
            </select>
          </label>
          <label class="wide">
            Term
            <input
              value={form.term}
              placeholder="Request id, transaction hash, wallet or deposit address"
              onInput={(event) => set({ term: value(event) })}
            />
          </label>
        </div>
        <div class="actions">
          <button type="submit">Apply filters</button>
          <button type="button" onClick={reset}>
            Clear filters
          </button>
          <button type="button" onClick={exportCsv} disabled={!page || exporting?.startsWith("Exporting")}>
            Export CSV
          </button>
        </div>
        {exporting && <p role="status">{exporting}</p>}
      </form>
      {error && <p role="alert">Could not load requests: {error}</p>}
      <p class="note">
        {liveStopped
          ? "Live updates stopped; reload the page to see later changes."
          : "Live: new requests and status changes appear as they happen."}
      </p>
      {/* Only the count is announced: with live updates a whole table in a live region would talk at every change. */}
      <div aria-busy={page === undefined}>
        <p aria-live="polite">
          {page &&
            `${page.totalCount === 1 ? "1 request matches" : `${page.totalCount ?? "?"} requests match`}; page ${cursors.length}.`}
        </p>
        {page && page.edges.length > 0 && (
          <table class="data requests-table">
            <caption class="visually-hidden">Requests, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Request</th>
                <th scope="col">Status</th>
                <th scope="col">Route</th>
                <th scope="col">Amount in</th>
                <th scope="col">Referrer</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {page.edges.map(({ node }) => {
                const input = node.route.actual.origin.inputCurrency;
                return (
                  <tr key={node.id} data-request-id={node.id}>
                    <td>
                      <a class="hash" href={`#/request/${node.id}`}>
                        {node.id.slice(0, 10)}…{node.id.slice(-6)}
                      </a>
                    </td>
                    <td>
                      <StatusBadge status={node.status} />
                    </td>
                    <td>
                      {chainName(node.originChainId)} → {chainName(node.destinationChainId)}
                    </td>
                    <td>{input ? `${input.amountFormatted} ${input.currency.symbol}` : "-"}</td>
                    <td>{node.referrer ?? "-"}</td>
                    <td>
                      <time dateTime={node.createdAt}>{new Date(node.createdAt).toLocaleString()}</time>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
        {page?.edges.length === 0 &&
          (JSON.stringify(applied) === JSON.stringify(EMPTY_FILTER_FORM) ? (
            <p>
              No requests yet. A quote asked with one of your integrator's API keys (the <code>x-api-key</code> header
              of <code>POST /quote</code>) is listed here from the moment it is quoted.
            </p>
          ) : (
            <p>No request matches these filters.</p>
          ))}
      </div>
      <nav class="actions" aria-label="Pages">
        <button type="button" disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
          Previous page
        </button>
        <button
          type="button"
          disabled={!page?.pageInfo.hasNextPage}
          onClick={() => page?.pageInfo.endCursor && setCursors([...cursors, page.pageInfo.endCursor])}
        >
          Next page
        </button>
      </nav>
    </section>
  );
}
