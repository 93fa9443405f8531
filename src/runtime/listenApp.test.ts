import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { listenApp } from "./listenApp.js";

describe("listenApp", () => {
  it("serves the app on a port the OS picks and frees it on close", async () => {
    const app = new Hono();
    app.get("/ping", (c) => c.text("pong"));
    const server = await listenApp(app, "127.0.0.1", 0);
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    expect(await (await fetch(`${server.url}/ping`)).text()).toBe("pong");
    await server.close();
    await expect(fetch(`${server.url}/ping`)).rejects.toThrow();
  });

  it("rejects when the port is taken", async () => {
    const first = await listenApp(new Hono(), "127.0.0.1", 0);
    await expect(listenApp(new Hono(), "127.0.0.1", first.port)).rejects.toMatchObject({ code: "EADDRINUSE" });
    await first.close();
  });
});
