import pino from "pino";
import { describe, expect, it } from "vitest";
import { FakePollerSource } from "../test/support/fakePollerSource.js";
import { useMigratedDatabase } from "../test/support/useMigratedDatabase.js";
import { startPollers } from "./startPollers.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("startPollers", () => {
  const db = useMigratedDatabase();

  it("polls each chain, logs and serves their health and heads, and stops them all", async () => {
    const sources = [new FakePollerSource(), new FakePollerSource()];
    sources[0]!.mine();
    sources[0]!.mine();
    sources[1]!.mine();
    const lines: Array<{ msg: string; pollers?: Array<{ chainId: number; cursor: number | null }> }> = [];
    const pollers = startPollers({
      pool: db.pool,
      logger: pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line)) }),
      chains: sources.map((source, index) => ({ source, chainId: 910_000 + index, startHeight: 0, pollEveryMs: 5 })),
      healthLogEveryMs: 5,
    });
    const caughtUp = () => pollers.health().every((health) => health.lag === 0);
    while (!caughtUp() || !lines.some((line) => line.pollers?.every((poller) => poller.cursor !== null)))
      await sleep(5);
    await pollers.stop();
    expect(pollers.health()).toMatchObject([
      { chainId: 910_000, head: 1, cursor: 1 },
      { chainId: 910_001, head: 0, cursor: 0 },
    ]);
    expect(lines.at(-1)?.msg).toBe("poller health");
    expect(await pollers.heads()).toEqual(
      new Map([
        [910_000, 1],
        [910_001, 0],
      ]),
    );
    const calls = sources.map((source) => source.calls.length);
    const logged = lines.length;
    await sleep(30);
    expect(sources.map((source) => source.calls.length)).toEqual(calls);
    expect(lines).toHaveLength(logged);
  });
});
