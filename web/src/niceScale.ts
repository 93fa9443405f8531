/**
 * A chart axis for values up to `max`: a round top (1, 2 or 5 times a power of ten, at least `max`) and the ticks
 * from 0 to it, about `count` + 1 of them; whole numbers only when counting (`integer`).
 */
export function niceScale(
  max: number,
  options: { count?: number; integer?: boolean } = {},
): { top: number; ticks: number[] } {
  if (!(max > 0)) return { top: 1, ticks: [0, 1] };
  const rough = max / (options.count ?? 4);
  const power = 10 ** Math.floor(Math.log10(rough));
  const nice = [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= rough)!;
  const step = options.integer ? Math.max(1, nice) : nice;
  // Rounded to the step's precision: no 0.30000000000000004 on an axis.
  const digits = Math.max(0, -Math.floor(Math.log10(step)));
  const steps = Math.ceil(max / step);
  const ticks = Array.from({ length: steps + 1 }, (_, index) => Number((index * step).toFixed(digits)));
  return { top: ticks[steps], ticks };
}
