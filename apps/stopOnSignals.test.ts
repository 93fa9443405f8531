import { afterEach, describe, expect, it, vi } from "vitest";
import { type SignalledProcess, stopOnSignals } from "./stopOnSignals.js";
import { stopSteps } from "./stopSteps.js";

/** A process whose signals the test sends, recording what it writes and the exit code. */
function fakeProcess() {
  const listeners = new Map<string, () => void>();
  const seen = { written: "", exits: [] as number[] };
  const process: SignalledProcess = {
    on: (signal, listener) => listeners.set(signal, listener),
    exit: (code) => void seen.exits.push(code),
    write: (text) => void (seen.written += text),
  };
  return { process, seen, signal: (name: "SIGINT" | "SIGTERM") => listeners.get(name)!() };
}
const never = () => new Promise<void>(() => undefined);

describe("stopOnSignals", () => {
  afterEach(() => vi.useRealTimers());

  it("stops once and exits 0 with 'Crossfill stopped.' last", async () => {
    const { process, seen, signal } = fakeProcess();
    const shutdown = vi.fn(async () => undefined);
    const beforeStop = vi.fn();
    stopOnSignals(shutdown, { deadlineMs: 1_000, process, beforeStop });
    signal("SIGTERM");
    await vi.waitFor(() => expect(seen.exits).toEqual([0]));
    expect(seen.written.trimEnd().split("\n").at(-1)).toBe("Crossfill stopped.");
    expect([shutdown.mock.calls.length, beforeStop.mock.calls.length]).toEqual([1, 1]);
  });

  it("exits 1 naming the step that hung once the deadline passes", async () => {
    vi.useFakeTimers();
    const { process, seen, signal } = fakeProcess();
    stopOnSignals(
      stopSteps([
        ["gateway", async () => undefined],
        ["queues", never],
      ]),
      { deadlineMs: 30_000, process },
    );
    signal("SIGINT");
    await vi.advanceTimersByTimeAsync(29_999);
    expect(seen.exits).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(seen.exits).toEqual([1]);
    expect(seen.written).toContain("shutdown did not finish in 30 s (still closing: queues): exiting");
  });

  it("exits at once on a second signal, but not on the same keypress delivered twice", async () => {
    let clock = 0;
    const { process, seen, signal } = fakeProcess();
    stopOnSignals(stopSteps([["worker", never]]), { deadlineMs: 30_000, process, now: () => clock });
    signal("SIGINT");
    clock = 5;
    signal("SIGINT");
    expect(seen.exits).toEqual([]);
    clock = 1_500;
    signal("SIGTERM");
    expect(seen.exits).toEqual([143]);
    expect(seen.written).toContain("SIGTERM again: exiting now (still closing: worker)");
  });

  it("exits 1 when the shutdown fails", async () => {
    const { process, seen, signal } = fakeProcess();
    stopOnSignals(stopSteps([["postgres", () => Promise.reject(new Error("pool gone"))]]), {
      deadlineMs: 1_000,
      process,
    });
    signal("SIGINT");
    await vi.waitFor(() => expect(seen.exits).toEqual([1]));
    expect(seen.written).toContain("shutdown failed (still closing: postgres): Error: pool gone");
  });
});
