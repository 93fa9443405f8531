import { describe, expect, it } from "vitest";
import { healthRoutes } from "./healthRoutes.js";
import type { Readiness } from "./readinessProbe.js";

const readiness = (ready: boolean): Readiness => ({
  ready,
  checkedAt: "2026-11-28T00:00:00.000Z",
  dependencies: { postgres: ready ? { ok: true, ms: 1 } : { ok: false, ms: 1, error: "ECONNREFUSED" } },
});

describe("healthRoutes", () => {
  it("answers /healthz without asking any dependency", async () => {
    const app = healthRoutes(() => Promise.reject(new Error("never asked")));
    const response = await app.request("/healthz");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("answers /readyz 200 when ready and 503 with each dependency's state when not", async () => {
    const ready = await healthRoutes(async () => readiness(true)).request("/readyz");
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: "ready",
      ready: true,
      dependencies: { postgres: { ok: true } },
    });
    const down = await healthRoutes(async () => readiness(false)).request("/readyz");
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({
      status: "not ready",
      dependencies: { postgres: { ok: false, error: "ECONNREFUSED" } },
    });
  });
});
