import { niceScale } from "./niceScale";

const WIDTH = 640;
const HEIGHT = 220;
const PAD = { left: 56, right: 32, top: 10, bottom: 28 };

/**
 * A bar chart in SVG (no library, no inline style: the page's CSP holds), scaled to its container's width. Bars
 * carry their value in a tooltip, and the same numbers are in a table below it for screen readers and for reading
 * without the picture.
 */
export function BarChart({
  id,
  title,
  points,
  format,
  label,
  integer = false,
}: {
  id: string;
  title: string;
  points: ReadonlyArray<{ at: Date; value: number }>;
  format: (value: number) => string;
  label: (at: Date) => string;
  /** Values are counts: whole-number ticks. */
  integer?: boolean;
}) {
  const { top, ticks } = niceScale(Math.max(0, ...points.map((point) => point.value)), { integer });
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotWidth / Math.max(1, points.length);
  const y = (value: number) => PAD.top + plotHeight - (value / top) * plotHeight;
  // At most about eight labels under the axis, however many bars.
  const every = Math.max(1, Math.ceil(points.length / 8));
  const total = points.reduce((sum, point) => sum + point.value, 0);
  return (
    <figure class="chart" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`}>
        {title} (total {format(total)})
      </figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-table`}
        preserveAspectRatio="none"
      >
        {ticks.map((tick) => (
          <g key={tick} class="tick">
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} />
            <text x={PAD.left - 6} y={y(tick) + 4} text-anchor="end">
              {format(tick)}
            </text>
          </g>
        ))}
        {points.map((point, index) => (
          <rect
            key={point.at.getTime()}
            class="bar"
            x={PAD.left + index * slot + slot * 0.1}
            width={slot * 0.8}
            y={y(point.value)}
            height={PAD.top + plotHeight - y(point.value)}
            data-value={point.value}
          >
            <title>
              {label(point.at)}: {format(point.value)}
            </title>
          </rect>
        ))}
        {points.map((point, index) =>
          index % every === 0 ? (
            <text
              key={point.at.getTime()}
              class="axis-label"
              x={PAD.left + index * slot + slot / 2}
              y={HEIGHT - 8}
              text-anchor="middle"
            >
              {label(point.at)}
            </text>
          ) : null,
        )}
      </svg>
      <details>
        {/* Each chart's own name: a page of charts is not a list of identical "Numbers" to a keyboard or screen reader. */}
        <summary>
          Numbers<span class="visually-hidden"> of {title}</span>
        </summary>
        <table class="data" id={`${id}-table`}>
          <caption class="visually-hidden">{title}</caption>
          <tbody>
            {points
              .filter((point) => point.value !== 0)
              .map((point) => (
                <tr key={point.at.getTime()}>
                  <th scope="row">{label(point.at)}</th>
                  <td>{format(point.value)}</td>
                </tr>
              ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
