import { readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { WEB_DIST, ensureWebBundle } from "./buildWebBundle.js";
import { webRoutes } from "./webRoutes.js";

describe("webRoutes", () => {
  beforeAll(() => ensureWebBundle(), 60_000);

  it("serves the explorer page uncached under a same-origin policy, its hashed files cached for good", async () => {
    const app = webRoutes();
    for (const route of ["/", "/explorer", "/explorer/request/0xabc"]) {
      const page = await app.request(route, { headers: { host: "127.0.0.1:4000" } });
      expect(page.status, route).toBe(200);
      expect(page.headers.get("cache-control")).toBe("no-cache");
      const policy = page.headers.get("content-security-policy") ?? "";
      expect(policy).toContain("default-src 'self'");
      expect(policy).toContain("connect-src 'self' ws://127.0.0.1:4000 wss://127.0.0.1:4000");
      const html = await page.text();
      expect(html).toMatch(/<script type="module" src="\/explorer\/assets\/main-[A-Z0-9]+\.js">/);
      // A favicon (issue 29), inline so that the policy's img-src data: covers it.
      expect(html).toMatch(/<link rel="icon" href="data:image\/svg\+xml,%3Csvg[^"]+%3C%2Fsvg%3E">/);
    }
    for (const file of readdirSync(path.join(WEB_DIST, "assets"))) {
      const asset = await app.request(`/explorer/assets/${file}`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(asset.headers.get("content-type")).toMatch(/^text\/(javascript|css)/);
    }
  });

  it("answers nothing outside the built files, and keeps a forged Host out of the policy", async () => {
    const app = webRoutes();
    expect((await app.request("/explorer/assets/..%2F..%2Fpackage.json")).status).toBe(404);
    expect((await app.request("/explorer/assets/missing-AAAA.js")).status).toBe(404);
    const page = await app.request("/", { headers: { host: "evil.example; script-src *" } });
    expect(page.headers.get("content-security-policy")).toContain("connect-src 'self';");
  });

  it("keeps serving what it read at start while web/dist is rebuilt, and rebuilds a bundle made from other sources", async () => {
    const app = webRoutes();
    const [script] = readdirSync(path.join(WEB_DIST, "assets")).filter((file) => file.endsWith(".js"));
    const stamp = path.join(WEB_DIST, "source.sha256");
    const digest = readFileSync(stamp, "utf8");
    rmSync(WEB_DIST, { recursive: true, force: true });
    expect((await app.request("/explorer/")).status).toBe(200);
    expect((await app.request(`/explorer/assets/${script}`)).status).toBe(200);

    await ensureWebBundle();
    writeFileSync(stamp, "made from other sources");
    await ensureWebBundle();
    expect(readFileSync(stamp, "utf8")).toBe(digest);
  }, 60_000);
});
