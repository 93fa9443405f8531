import { Hono } from "hono";
import { cors } from "hono/cors";
import { describe, expect, it } from "vitest";
import { corsHeaders } from "./corsHeaders.js";

const EXPOSED = ["RateLimit", "Retry-After"];

function apps() {
  const build = (middleware: ReturnType<typeof corsHeaders>) =>
    new Hono()
      .use("*", middleware)
      .get("/json", (c) => c.json({ ok: true }))
      .get("/raw", (c) => c.newResponse("raw", new Response("raw", { headers: { "X-Own": "1" } })))
      .post("/fails", () => {
        throw new Error("boom");
      })
      .onError((_, c) => c.json({ message: "boom" }, 500));
  return { ours: build(corsHeaders(EXPOSED)), hono: build(cors({ origin: "*", exposeHeaders: EXPOSED })) };
}

const corsOf = (response: Response) =>
  Object.fromEntries([...response.headers].filter(([name]) => name.startsWith("access-control") || name === "vary"));

describe("corsHeaders", () => {
  it("answers like hono's cors with origin *: simple requests, errors, a handler's own Response, preflights", async () => {
    const { ours, hono } = apps();
    const requests: Array<[string, RequestInit]> = [
      ["/json", { headers: { Origin: "https://example.com" } }],
      ["/raw", {}],
      ["/fails", { method: "POST" }],
      [
        "/json",
        {
          method: "OPTIONS",
          headers: {
            Origin: "https://example.com",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type, x-api-key",
          },
        },
      ],
      ["/json", { method: "OPTIONS" }],
    ];
    for (const [path, init] of requests) {
      const [mine, theirs] = await Promise.all([ours.request(path, init), hono.request(path, init)]);
      expect(mine.status, `${init.method ?? "GET"} ${path}`).toBe(theirs.status);
      expect(corsOf(mine), `${init.method ?? "GET"} ${path}`).toEqual(corsOf(theirs));
    }
    const preflight = await ours.request("/json", {
      method: "OPTIONS",
      headers: { "Access-Control-Request-Headers": "content-type, x-api-key" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")).toBe("content-type,x-api-key");
    expect((await ours.request("/raw")).headers.get("x-own")).toBe("1");
  });
});
