export type PrometheusSample = { name: string; labels: Record<string, string>; value: number };
export type PrometheusFamily = { name: string; type: string; help?: string; samples: PrometheusSample[] };

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(["counter", "gauge", "histogram", "summary", "untyped"]);
const FLOAT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const SUFFIXES: Record<string, string[]> = {
  histogram: ["_bucket", "_sum", "_count"],
  summary: ["", "_sum", "_count"],
};

/** A sample value as Prometheus' parser reads it (Go's ParseFloat: NaN, ±Inf, decimals with exponents). */
function parseValue(raw: string, where: string): number {
  if (raw === "NaN") return Number.NaN;
  if (raw === "+Inf" || raw === "Inf") return Number.POSITIVE_INFINITY;
  if (raw === "-Inf") return Number.NEGATIVE_INFINITY;
  if (!FLOAT.test(raw)) throw new Error(`${where}: "${raw}" is not a number`);
  return Number(raw);
}

/** `{a="1",b="x\"y"}` from `line[start]` = `{`: the labels and the index after `}`. */
function parseLabels(line: string, start: number, where: string): [Record<string, string>, number] {
  const labels: Record<string, string> = {};
  let at = start + 1;
  while (line[at] !== "}") {
    const eq = line.indexOf("=", at);
    if (eq < 0) throw new Error(`${where}: a label without "="`);
    const name = line.slice(at, eq).trim();
    if (!LABEL_NAME.test(name) || name.startsWith("__")) throw new Error(`${where}: bad label name "${name}"`);
    if (name in labels) throw new Error(`${where}: label "${name}" twice`);
    if (line[eq + 1] !== '"') throw new Error(`${where}: label "${name}" is not quoted`);
    let value = "";
    let i = eq + 2;
    for (; i < line.length && line[i] !== '"'; i++) {
      if (line[i] !== "\\") {
        value += line[i];
        continue;
      }
      const escaped = line[++i];
      if (escaped === "\\" || escaped === '"') value += escaped;
      else if (escaped === "n") value += "\n";
      else throw new Error(`${where}: bad escape "\\${escaped}" in label "${name}"`);
    }
    if (i >= line.length) throw new Error(`${where}: label "${name}" is not closed`);
    labels[name] = value;
    at = i + 1;
    if (line[at] === ",") at++;
    else if (line[at] !== "}") throw new Error(`${where}: "${line[at] ?? "end of line"}" after label "${name}"`);
  }
  return [labels, at + 1];
}

/** Buckets cumulative by `le`, ending at +Inf equal to `_count`, with a `_sum`: per label set without `le`. */
function checkHistogram(family: PrometheusFamily) {
  const series = new Map<string, { buckets: [number, number][]; count?: number; sum?: number }>();
  for (const sample of family.samples) {
    const { le, ...rest } = sample.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    const entry = series.get(key) ?? { buckets: [] };
    series.set(key, entry);
    if (sample.name.endsWith("_bucket")) {
      if (le === undefined) throw new Error(`${family.name}: a bucket without le`);
      entry.buckets.push([parseValue(le, `${family.name} le`), sample.value]);
    } else if (sample.name.endsWith("_count")) entry.count = sample.value;
    else entry.sum = sample.value;
  }
  for (const [key, { buckets, count, sum }] of series) {
    const where = `${family.name}${key}`;
    if (count === undefined || sum === undefined) throw new Error(`${where}: no _count or _sum`);
    buckets.sort((a, b) => a[0] - b[0]);
    const last = buckets.at(-1);
    if (!last || last[0] !== Number.POSITIVE_INFINITY) throw new Error(`${where}: no le="+Inf" bucket`);
    if (last[1] !== count) throw new Error(`${where}: the +Inf bucket ${last[1]} is not _count ${count}`);
    buckets.forEach(([, value], n) => {
      if (n > 0 && value < buckets[n - 1]![1]) throw new Error(`${where}: buckets are not cumulative`);
    });
  }
}

/**
 * Prometheus' text exposition format (0.0.4), read strictly: HELP and TYPE at most once per family and before its
 * samples, a family's samples together, names and labels as the format allows them, no sample twice, counters never
 * negative, histograms consistent. Throws naming the line that breaks a rule; the families by name.
 */
export function parsePrometheusText(text: string): Map<string, PrometheusFamily> {
  const families = new Map<string, PrometheusFamily>();
  const seen = new Set<string>();
  const finished = new Set<string>();
  let current: PrometheusFamily | undefined;
  const familyOf = (name: string): PrometheusFamily => {
    for (const [suffix, candidates] of [
      ["_bucket", ["histogram"]],
      ["_sum", ["histogram", "summary"]],
      ["_count", ["histogram", "summary"]],
    ] as const) {
      const base = name.slice(0, -suffix.length);
      if (name.endsWith(suffix) && (candidates as readonly string[]).includes(families.get(base)?.type ?? ""))
        return families.get(base)!;
    }
    return families.get(name) ?? { name, type: "untyped", samples: [] };
  };
  const enter = (family: PrometheusFamily, where: string) => {
    if (current === family) return;
    if (finished.has(family.name)) throw new Error(`${where}: ${family.name}'s samples are not together`);
    if (current) finished.add(current.name);
    families.set(family.name, family);
    current = family;
  };
  text.split("\n").forEach((line, index) => {
    const where = `line ${index + 1}`;
    if (line === "") return;
    if (line.startsWith("#")) {
      const match = /^#\s+(HELP|TYPE)\s+(\S+)(?:\s(.*))?$/.exec(line);
      if (!match) return; // a comment
      const [, keyword, name, rest = ""] = match;
      if (!METRIC_NAME.test(name!)) throw new Error(`${where}: bad metric name "${name}"`);
      const family = families.get(name!) ?? { name: name!, type: "untyped", samples: [] };
      if (family.samples.length) throw new Error(`${where}: ${keyword} of ${name} after its samples`);
      enter(family, where);
      if (keyword === "HELP") {
        if (family.help !== undefined) throw new Error(`${where}: HELP of ${name} twice`);
        family.help = rest;
      } else {
        if (!TYPES.has(rest.trim())) throw new Error(`${where}: unknown type "${rest}"`);
        if (seen.has(`TYPE ${name}`)) throw new Error(`${where}: TYPE of ${name} twice`);
        seen.add(`TYPE ${name}`);
        family.type = rest.trim();
      }
      return;
    }
    const nameEnd = line.search(/[{ ]/);
    if (nameEnd < 0) throw new Error(`${where}: a sample without a value`);
    const name = line.slice(0, nameEnd);
    if (!METRIC_NAME.test(name)) throw new Error(`${where}: bad metric name "${name}"`);
    const [labels, after] = line[nameEnd] === "{" ? parseLabels(line, nameEnd, where) : [{}, nameEnd];
    const fields = line.slice(after).trim().split(/\s+/);
    if (line[after] !== " " || fields.length < 1 || fields.length > 2 || fields[0] === "")
      throw new Error(`${where}: "${line}" is not "name{labels} value [timestamp]"`);
    if (fields[1] !== undefined && !/^-?\d+$/.test(fields[1]))
      throw new Error(`${where}: bad timestamp "${fields[1]}"`);
    const value = parseValue(fields[0]!, where);
    const family = familyOf(name);
    const suffixes = SUFFIXES[family.type] ?? [""];
    if (!suffixes.some((suffix) => `${family.name}${suffix}` === name))
      throw new Error(`${where}: ${name} is no sample of ${family.type} ${family.name}`);
    enter(family, where);
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (seen.has(key)) throw new Error(`${where}: ${name} with these labels twice`);
    seen.add(key);
    if (family.type === "counter" && !(value >= 0)) throw new Error(`${where}: counter ${name} is ${value}`);
    family.samples.push({ name, labels, value });
  });
  for (const family of families.values()) if (family.type === "histogram") checkHistogram(family);
  return families;
}
