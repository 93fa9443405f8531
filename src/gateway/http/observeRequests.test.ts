import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../domain/errors.js";
import { createMetrics } from "../../metrics/createMetrics.js";
import { observeRequests } from "./observeRequests.js";

describe("observeRequests", () => {
  it("labels requests by route pattern (unmatched paths as one series) and quotes by outcome and errorCode", async () => {
    const metrics = createMetrics("api");
    const app = new Hono();
    app.use("*", observeRequests(metrics));
    app.get("/requests/:id", (c) => c.json({}));
    app.post("/quote/v2", async (c) => {
      if ((await c.req.text()) === "bad") throw new InvalidInputError("INVALID_INPUT", "amount: required");
      return c.json({});
    });
    app.onError((_error, c) => c.json({}, 400));
    for (const id of ["a", "b"]) await app.request(`/requests/${id}`);
    for (const path of ["/wp-admin", "/.env", "/x/y/z"]) expect((await app.request(path)).status).toBe(404);
    await app.request("/quote/v2", { method: "POST", body: "ok" });
    await app.request("/quote/v2", { method: "POST", body: "bad" });

    const text = await metrics.registry.metrics();
    expect(text).toContain(
      'crossfill_http_request_duration_seconds_count{role="api",route="/requests/:id",method="GET",status="200"} 2',
    );
    expect(text).toContain(
      'crossfill_http_request_duration_seconds_count{role="api",route="unmatched",method="GET",status="404"} 3',
    );
    expect(text).not.toMatch(/wp-admin|\.env/);
    expect(text).toContain('crossfill_quotes_total{endpoint="/quote/v2",outcome="quoted",errorCode="",role="api"} 1');
    expect(text).toContain(
      'crossfill_quotes_total{endpoint="/quote/v2",outcome="refused",errorCode="INVALID_INPUT",role="api"} 1',
    );
  });
});
