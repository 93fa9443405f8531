import { describe, expect, it, vi } from "vitest";
import { TransientError } from "../domain/errors.js";
import { createReadinessProbe } from "./readinessProbe.js";

describe("createReadinessProbe", () => {
  it("is ready when every dependency answers, with each one's detail", async () => {
    const probe = createReadinessProbe([
      { name: "postgres", check: async () => undefined },
      { name: "chain 1", check: async () => "head 7" },
    ]);
    const readiness = await probe();
    expect(readiness.ready).toBe(true);
    expect(readiness.dependencies).toMatchObject({ postgres: { ok: true }, "chain 1": { ok: true, detail: "head 7" } });
  });

  it("is not ready when one fails or does not answer in time, and names only the failure's code", async () => {
    const warn = vi.fn();
    const probe = createReadinessProbe(
      [
        { name: "postgres", check: async () => undefined },
        {
          name: "chain 1",
          check: async () => {
            throw new TransientError("RPC_HTTP_ERROR", "https://rpc.example/key-s3cret answered 502");
          },
        },
        { name: "chain 2", check: () => new Promise(() => undefined) },
        {
          name: "redis",
          check: async () => {
            throw Object.assign(new Error("connect ECONNREFUSED 10.0.0.7:6379"), { code: "ECONNREFUSED" });
          },
        },
      ],
      { timeoutMs: 50, logger: { warn } },
    );
    const readiness = await probe();
    expect(readiness.ready).toBe(false);
    expect(readiness.dependencies).toMatchObject({
      postgres: { ok: true },
      "chain 1": { ok: false, error: "RPC_HTTP_ERROR" },
      "chain 2": { ok: false, error: "no answer in 50 ms" },
      redis: { ok: false, error: "ECONNREFUSED" },
    });
    expect(JSON.stringify(readiness)).not.toMatch(/s3cret|10\.0\.0\.7/);
    // the whole error goes to the role's log
    expect(warn).toHaveBeenCalledTimes(3);
  });

  it("shares one round of checks between calls within cacheMs, then checks again", async () => {
    let now = 1_000;
    const check = vi.fn(async () => undefined);
    const probe = createReadinessProbe([{ name: "postgres", check }], { cacheMs: 1_000, now: () => now });
    await Promise.all([probe(), probe(), probe()]);
    now += 999;
    await probe();
    expect(check).toHaveBeenCalledTimes(1);
    now += 1;
    await probe();
    expect(check).toHaveBeenCalledTimes(2);
  });
});
