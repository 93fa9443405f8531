import { readFileSync } from "node:fs";
import path from "node:path";
import { Hono } from "hono";
import { WEB_ASSETS_PATH, WEB_DIST } from "./buildWebBundle.js";

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};
const ASSET_NAME = /^[A-Za-z0-9_-]+\.(js|css)$/;
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
 */
export function webRoutes(): Hono {
  const app = new Hono();
  const page = readFileSync(path.join(WEB_DIST, "index.html"), "utf8");
  const html = (host: string | undefined) => ({
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-cache",
    "content-security-policy": contentSecurityPolicy(host),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
  });
  app.get(`${WEB_ASSETS_PATH}:file`, (c) => {
    const file = c.req.param("file");
    if (!ASSET_NAME.test(file)) return c.notFound();
    let body: Buffer;
    try {
      body = readFileSync(path.join(WEB_DIST, "assets", file));
    } catch {
      return c.notFound();
    }
    return c.body(new Uint8Array(body), 200, {
      "content-type": TYPES[path.extname(file)],
      "cache-control": "public, max-age=31536000, immutable",
      "x-content-type-options": "nosniff",
    });
  });
  for (const route of ["/", "/explorer", "/explorer/*"])
    app.get(route, (c) => c.body(page, 200, html(c.req.header("host"))));
  return app;
}
