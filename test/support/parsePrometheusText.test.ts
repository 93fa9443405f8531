import { Counter, Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { parsePrometheusText } from "./parsePrometheusText.js";

describe("parsePrometheusText", () => {
  it("reads prom-client's page: types, escaped labels, histogram buckets", async () => {
    const registry = new Registry();
    registry.setDefaultLabels({ role: "api" });
    new Counter({ name: "a_total", help: "A", labelNames: ["code"], registers: [registry] }).inc(
      { code: 'say "hi"\\\n' },
      3,
    );
    new Histogram({ name: "b_seconds", help: "B", buckets: [0.1, 1], registers: [registry] }).observe(0.5);
    const families = parsePrometheusText(await registry.metrics());
    expect(families.get("a_total")).toEqual({
      name: "a_total",
      type: "counter",
      help: "A",
      samples: [{ name: "a_total", labels: { code: 'say "hi"\\\n', role: "api" }, value: 3 }],
    });
    const b = families.get("b_seconds")!;
    expect(b.type).toBe("histogram");
    expect(b.samples.map((sample) => [sample.name, sample.labels.le, sample.value])).toEqual([
      ["b_seconds_bucket", "0.1", 0],
      ["b_seconds_bucket", "1", 1],
      ["b_seconds_bucket", "+Inf", 1],
      ["b_seconds_sum", undefined, 0.5],
      ["b_seconds_count", undefined, 1],
    ]);
  });

  it("reads values as Prometheus does: NaN, ±Inf, exponents, a timestamp", () => {
    const families = parsePrometheusText('# TYPE g gauge\ng{a="1"} NaN\ng{a="2"} -Inf\ng{a="3",} 1.5e3 1700000000\n');
    expect(families.get("g")!.samples.map((sample) => sample.value)).toEqual([Number.NaN, -Infinity, 1500]);
  });

  it.each([
    ["a value that is no number", "# TYPE g gauge\ng 1,5\n", /is not a number/],
    ["a sample without a value", "g\n", /without a value/],
    ["a bad metric name", "# TYPE 1g gauge\n", /bad metric name/],
    ["a bad label name", 'g{1a="x"} 1\n', /bad label name/],
    ["a reserved label name", 'g{__name__="x"} 1\n', /bad label name/],
    ["an unquoted label", "g{a=x} 1\n", /not quoted/],
    ["an unknown escape", 'g{a="\\t"} 1\n', /bad escape/],
    ["a label twice", 'g{a="1",a="2"} 1\n', /twice/],
    ["an unclosed label", 'g{a="1} 1\n', /not closed/],
    ["a sample twice", "g 1\ng 2\n", /twice/],
    ["TYPE twice", "# TYPE g gauge\n# TYPE g gauge\n", /TYPE of g twice/],
    ["TYPE after samples", "g 1\n# TYPE g gauge\n", /after its samples/],
    ["an unknown type", "# TYPE g meter\n", /unknown type/],
    ["a family's samples apart", 'g{a="1"} 1\nh 1\ng{a="2"} 1\n', /not together/],
    ["a negative counter", "# TYPE c counter\nc -1\n", /counter c is -1/],
    ["a bare sample of a histogram", "# TYPE h histogram\nh 1\n", /no sample of/],
    [
      "buckets not cumulative",
      '# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 1\n',
      /not cumulative/,
    ],
    ["no +Inf bucket", '# TYPE h histogram\nh_bucket{le="1"} 1\nh_sum 1\nh_count 1\n', /no le="\+Inf"/],
    ["+Inf not the count", '# TYPE h histogram\nh_bucket{le="+Inf"} 2\nh_sum 1\nh_count 1\n', /is not _count/],
    ["no _sum", '# TYPE h histogram\nh_bucket{le="+Inf"} 1\nh_count 1\n', /no _count or _sum/],
  ])("refuses %s", (_case, text, error) => {
    expect(() => parsePrometheusText(text)).toThrow(error);
  });
});
