import { useEffect, useState } from "preact/hooks";
import { BarChart } from "./BarChart";
import { dashboardRequest } from "./dashboardRequest";
import { STATS_BY_FAIL_REASON, STATS_BY_ROUTE, STATS_OVER_TIME, STATS_TOTAL } from "./dashboardQueries";
import type { StatsBucket } from "./dashboardTypes";
import { fillBuckets } from "./fillBuckets";
import { reasonInWords } from "./reasonInWords";
import { type StatsPreset, type StatsWindow, statsWindow } from "./statsWindow";
import { useChains } from "./useChains";
import { useFocusOnShow } from "./useFocusOnShow";

const PRESETS: [StatsPreset, string][] = [
  ["24h", "Last 24 hours"],
  ["7d", "Last 7 days"],
  ["30d", "Last 30 days"],
  ["90d", "Last 90 days"],
  ["custom", "Dates…"],
];

type Stats = { total: StatsBucket; overTime: StatsBucket[]; byRoute: StatsBucket[]; byFailReason: StatsBucket[] };

const usd = (value: number) =>
  value.toLocaleString(undefined, {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: 0,
    maximumFractionDigits: value < 100 && !Number.isInteger(value) ? 2 : 0,
  });
const count = (value: number) => value.toLocaleString();
const rate = (successRate: string | null) =>
  successRate === null ? "none finished" : `${(Number(successRate) * 100).toFixed(1)} %`;
const seconds = (value: number | null) => (value === null ? "-" : `${value.toFixed(1)} s`);

/** The integrator's numbers from requestStats over a chosen range: over time, success, fill times by route, failures. */
export function AnalyticsPage() {
  const heading = useFocusOnShow<HTMLHeadingElement>();
  const chains = useChains();
  const [preset, setPreset] = useState<StatsPreset>("7d");
  const [custom, setCustom] = useState({ from: "", to: "" });
  const [stats, setStats] = useState<Stats | undefined>();
  const [error, setError] = useState<string | undefined>();
  // The range is fixed when asked for (a preset ends now), not at every render.
  const [asked, setAsked] = useState(0);
  const [range, setRange] = useState<StatsWindow | undefined>();

  useEffect(() => setRange(statsWindow(preset, custom)), [preset, asked]);

  useEffect(() => {
    if (!range) return;
    let current = true;
    const variables = {
      // Every key of the signed-in key's integrator, revoked ones included, however many.
      filter: { myIntegrator: true },
      from: range.from.toISOString(),
      to: range.to.toISOString(),
    };
    setStats(undefined);
    // requestStats is one per operation: four operations, in parallel.
    Promise.all([
      dashboardRequest<{ requestStats: StatsBucket[] }>(STATS_TOTAL, variables),
      dashboardRequest<{ requestStats: StatsBucket[] }>(STATS_OVER_TIME, { ...variables, groupBy: [range.groupBy] }),
      dashboardRequest<{ requestStats: StatsBucket[] }>(STATS_BY_ROUTE, variables),
      dashboardRequest<{ requestStats: StatsBucket[] }>(STATS_BY_FAIL_REASON, variables),
    ]).then(
      ([total, overTime, byRoute, byFailReason]) =>
        current &&
        (setStats({
          total: total.requestStats[0],
          overTime: overTime.requestStats,
          byRoute: byRoute.requestStats,
          byFailReason: byFailReason.requestStats.filter((bucket) => bucket.failReason),
        }),
        setError(undefined)),
      (failure: Error) => current && setError(failure.message),
    );
    return () => {
      current = false;
    };
  }, [range]);

  const chainName = (id: number | null | undefined) =>
    chains.find((chain) => chain.id === id)?.displayName ?? `chain ${id}`;
  const series = stats && range ? fillBuckets(range, stats.overTime) : [];
  const label = (at: Date) =>
    range?.groupBy === "HOUR"
      ? at.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" })
      : at.toLocaleDateString(undefined, { month: "short", day: "numeric", timeZone: "UTC" });
  const per = range?.groupBy === "HOUR" ? "hour" : "day (UTC)";

  return (
    <section aria-labelledby="analytics-title">
      <h1 id="analytics-title" tabIndex={-1} ref={heading}>
        Analytics
      </h1>
      <form
        class="form"
        aria-label="Time range"
        onSubmit={(event) => {
          event.preventDefault();
          setAsked(asked + 1);
        }}
      >
        <fieldset>
          <legend>Time range</legend>
          <div class="row">
            {PRESETS.map(([value, text]) => (
              <label class="check" key={value}>
                <input
                  type="radio"
                  name="preset"
                  value={value}
                  checked={preset === value}
                  onChange={() => setPreset(value)}
                />{" "}
                {text}
              </label>
            ))}
          </div>
          {preset === "custom" && (
            <div class="row">
              <label>
                From{" "}
                <input
                  type="date"
                  value={custom.from}
                  onInput={(event) => setCustom({ ...custom, from: (event.target as HTMLInputElement).value })}
                />
              </label>
              <label>
                To{" "}
                <input
                  type="date"
                  value={custom.to}
                  onInput={(event) => setCustom({ ...custom, to: (event.target as HTMLInputElement).value })}
                />
              </label>
            </div>
          )}
        </fieldset>
        <div class="actions">
          <button type="submit">Show</button>
        </div>
        {preset === "custom" && !range && <p role="alert">Choose a start and an end date, at most 366 days apart.</p>}
      </form>
      {range && (
        <p class="note">
          Requests created from {range.from.toLocaleString()} to {range.to.toLocaleString()}, by {per}.
        </p>
      )}
      {error && <p role="alert">Could not load the numbers: {error}</p>}
      {!stats && !error && range && <p aria-busy="true">Loading…</p>}
      {stats && (
        <>
          <dl class="totals">
            <div>
              <dt>Requests</dt>
              <dd data-total="count">{count(stats.total.count)}</dd>
            </div>
            <div>
              <dt>Volume</dt>
              <dd>{usd(Number(stats.total.volumeUsd))}</dd>
            </div>
            <div>
              <dt>Success rate</dt>
              <dd data-total="success-rate">
                {rate(stats.total.successRate)}
                <span class="note">
                  {" "}
                  ({stats.total.successes} of {stats.total.finished} finished)
                </span>
              </dd>
            </div>
            <div>
              <dt>Fill time p50 / p95</dt>
              <dd>
                {seconds(stats.total.fillSecondsP50)} / {seconds(stats.total.fillSecondsP95)}
              </dd>
            </div>
          </dl>
          <BarChart
            id="chart-count"
            title={`Requests per ${per}`}
            points={series.map((bucket) => ({ at: bucket.at, value: bucket.count }))}
            format={count}
            label={label}
            integer
          />
          <BarChart
            id="chart-volume"
            title={`Volume (USD) per ${per}`}
            points={series.map((bucket) => ({ at: bucket.at, value: bucket.volumeUsd }))}
            format={usd}
            label={label}
          />
          <h2>Fill time by route</h2>
          {stats.byRoute.length === 0 ? (
            <p>No requests in this range.</p>
          ) : (
            <table class="data routes">
              <thead>
                <tr>
                  <th scope="col">Route</th>
                  <th scope="col">Requests</th>
                  <th scope="col">Success rate</th>
                  <th scope="col">Fill p50</th>
                  <th scope="col">Fill p95</th>
                </tr>
              </thead>
              <tbody>
                {stats.byRoute.map((bucket) => (
                  <tr key={`${bucket.originChainId}-${bucket.destinationChainId}`}>
                    <th scope="row">
                      {chainName(bucket.originChainId)} → {chainName(bucket.destinationChainId)}
                    </th>
                    <td>{count(bucket.count)}</td>
                    <td>{rate(bucket.successRate)}</td>
                    <td>{seconds(bucket.fillSecondsP50)}</td>
                    <td>{seconds(bucket.fillSecondsP95)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <h2>Fail reasons</h2>
          {stats.byFailReason.length === 0 ? (
            <p>No failed or refunded requests in this range.</p>
          ) : (
            <table class="data fail-reasons">
              <thead>
                <tr>
                  <th scope="col">Reason</th>
                  <th scope="col">Requests</th>
                </tr>
              </thead>
              <tbody>
                {stats.byFailReason.map((bucket) => (
                  <tr key={bucket.failReason}>
                    <th scope="row">
                      {reasonInWords(bucket.failReason!)} <span class="hash">({bucket.failReason})</span>
                    </th>
                    <td>{count(bucket.count)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}
