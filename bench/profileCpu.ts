import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import path from "node:path";

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type Profile = { nodes: ProfileNode[]; samples?: number[]; timeDeltas?: number[]; startTime: number; endTime: number };

export type CpuProfileSummary = {
  /** Wall time profiled and how much of it the thread was busy (not idle), ms. */
  wallMs: number;
  busyMs: number;
  /** Self time by where the code comes from (npm package, node internals, a folder of ours, GC), largest first. */
  byOrigin: Array<{ origin: string; ms: number; percentOfBusy: number }>;
  /** The functions with the most self time. */
  topFunctions: Array<{ fn: string; ms: number; percentOfBusy: number }>;
  /**
   * Self time charged to the innermost function of ours (src/, schema/, jobs/ …, not node_modules) on the
   * sample's stack, i.e. which of our calls the library and runtime time was spent for.
   */
  byOwnCaller: Array<{ fn: string; ms: number; percentOfBusy: number }>;
};

const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");

function originOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  if (url.startsWith("node:")) return "node internals";
  const file = url.replace(/^file:\/\//, "");
  const nm = file.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = file.slice(nm + "node_modules/".length).split("/");
    return rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const relative = path.relative(repoRoot, file);
  return relative.startsWith("..") ? file : relative.split(path.sep).slice(0, 2).join("/");
}

function isOurs(url: string): boolean {
  const file = url.replace(/^file:\/\//, "");
  return (
    file.startsWith(repoRoot) && !file.includes("node_modules/") && !path.relative(repoRoot, file).startsWith("bench/")
  );
}

function summarize(profile: Profile, top: number): CpuProfileSummary {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const label = (node: ProfileNode) => {
    const { functionName, url, lineNumber } = node.callFrame;
    // Line numbers of our files are those of the tsx-transpiled code, so they are left out.
    const line = url && !isOurs(url) ? `:${lineNumber + 1}` : "";
    return `${functionName || "(anonymous)"} ${url ? `${originOf(url, functionName)}:${path.basename(url)}${line}` : ""}`.trim();
  };
  const ownCaller = (id: number): string => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const node = nodes.get(at)!;
      if (isOurs(node.callFrame.url)) return label(node);
    }
    return "(no frame of ours: HTTP server, sockets, timers)";
  };
  const selfMs = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  // timeDeltas[i] is the time before sample i; attributing it to sample i is what Chrome DevTools does.
  for (let i = 0; i < samples.length; i++)
    selfMs.set(samples[i], (selfMs.get(samples[i]) ?? 0) + (deltas[i] ?? 0) / 1000);
  const byOrigin = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const byOwn = new Map<string, number>();
  let busy = 0;
  // The profiler's own work (serializing the profile at Profiler.stop) runs under profileCpu: not the server's.
  const underProfiler = (id: number) => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at))
      if (nodes.get(at)!.callFrame.url.endsWith("/bench/profileCpu.ts")) return true;
    return false;
  };
  for (const [id, ms] of selfMs) {
    const { functionName, url } = nodes.get(id)!.callFrame;
    if (functionName === "(idle)" || underProfiler(id)) continue;
    busy += ms;
    const origin = originOf(url, functionName);
    byOrigin.set(origin, (byOrigin.get(origin) ?? 0) + ms);
    const fn = label(nodes.get(id)!);
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
    const own = ownCaller(id);
    byOwn.set(own, (byOwn.get(own) ?? 0) + ms);
  }
  const rank = <K extends string>(map: Map<string, number>, key: K) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(
        ([name, ms]) =>
          ({ [key]: name, ms: Math.round(ms), percentOfBusy: Math.round((ms / busy) * 1000) / 10 }) as {
            [P in K]: string;
          } & { ms: number; percentOfBusy: number },
      );
  return {
    wallMs: Math.round((profile.endTime - profile.startTime) / 1000),
    busyMs: Math.round(busy),
    byOrigin: rank(byOrigin, "origin"),
    topFunctions: rank(byFunction, "fn"),
    byOwnCaller: rank(byOwn, "fn"),
  };
}

/** Samples this process's main thread (raw profile to `rawPath` if given, for Chrome DevTools) with the V8 profiler while `work` runs, and summarizes where time went. */
export async function profileCpu<T>(
  work: () => Promise<T>,
  options: { top?: number; intervalUs?: number; rawPath?: string } = {},
): Promise<{ result: T; profile: CpuProfileSummary }> {
  const session = new Session();
  session.connect();
  try {
    await session.post("Profiler.enable");
    await session.post("Profiler.setSamplingInterval", { interval: options.intervalUs ?? 500 });
    await session.post("Profiler.start");
    let outcome: { ok: true; value: T } | { ok: false; error: unknown };
    try {
      outcome = { ok: true, value: await work() };
    } catch (error) {
      outcome = { ok: false, error };
    }
    const { profile } = (await session.post("Profiler.stop")) as unknown as { profile: Profile };
    if (options.rawPath) writeFileSync(options.rawPath, JSON.stringify(profile));
    if (!outcome.ok) throw outcome.error;
    return { result: outcome.value, profile: summarize(profile, options.top ?? 15) };
  } finally {
    session.disconnect();
  }
}
