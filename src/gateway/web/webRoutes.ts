import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { Hono } from "hono";
import { WEB_ASSETS_PATH, WEB_DIST } from "./buildWebBundle.js";

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};
// Only what a Host header may hold, so nothing else reaches the policy.
const HOST = /^[A-Za-z0-9.:[\]-]+$/;

/** Same origin only; graphql-ws on this host is named too, as older browsers do not count ws: as 'self'. */
function contentSecurityPolicy(host: string | undefined): string {
  const sockets = host && HOST.test(host) ? ` ws://${host} wss://${host}` : "";
  return [
    "default-src 'self'",
    `connect-src 'self'${sockets}`,
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * The public explorer (web/, built into web/dist): its page at `/` and `/explorer/*` (routes live in the hash),
 * never cached, so a new build is seen at once; its content-hashed files under /explorer/assets/, cached for good.
 * Everything is read once, at start: a later rebuild by another process cannot pull files from under this page.
 */
export function webRoutes(): Hono {
  const app = new Hono();
  const page = readFileSync(path.join(WEB_DIST, "index.html"), "utf8");
  const assetsDir = path.join(WEB_DIST, "assets");
  const assets = new Map(
    readdirSync(assetsDir)
      .filter((file) => TYPES[path.extname(file)])
      .map((file) => [file, { body: readFileSync(path.join(assetsDir, file)), type: TYPES[path.extname(file)] }]),
  );
  const html = (host: string | undefined) => ({
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-cache",
    "content-security-policy": contentSecurityPolicy(host),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
  });
  app.get(`${WEB_ASSETS_PATH}:file`, (c) => {
    const asset = assets.get(c.req.param("file"));
    if (!asset) return c.notFound();
    return c.body(new Uint8Array(asset.body), 200, {
      "content-type": asset.type,
      "cache-control": "public, max-age=31536000, immutable",
      "x-content-type-options": "nosniff",
    });
  });
  for (const route of ["/", "/explorer", "/explorer/*"])
    app.get(route, (c) => c.body(page, 200, html(c.req.header("host"))));
  return app;
}
