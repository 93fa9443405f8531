import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Hono } from "hono";
import { openapiDocument } from "./openapiDocument.js";

// Swagger UI's static bundle comes from the npm package swagger-ui-dist; nothing is fetched at run time.
const assetsDir = path.dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
const ASSETS: Record<string, string> = { "swagger-ui-bundle.js": "text/javascript", "swagger-ui.css": "text/css" };
// The choices behind the API (and the v2 migration guide the deprecation headers link to).
const API_GUIDE = new URL("../../../docs/API.md", import.meta.url);

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Crossfill API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="docs"></div><script src="/docs/assets/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#docs" });</script></body></html>`;

/** GET /openapi.json and a readable docs page at /docs. */
export function docsRoutes(): Hono {
  const app = new Hono();
  const document = openapiDocument();
  app.get("/openapi.json", (c) => c.json(document));
  app.get("/docs", (c) => c.html(PAGE));
  app.get("/docs/api.md", (c) =>
    c.body(readFileSync(API_GUIDE, "utf8"), 200, { "content-type": "text/markdown; charset=utf-8" }),
  );
  app.get("/docs/assets/:file", (c) => {
    const type = ASSETS[c.req.param("file")];
    if (!type) return c.notFound();
    return c.body(readFileSync(path.join(assetsDir, c.req.param("file"))), 200, {
      "content-type": type,
      "cache-control": "public, max-age=86400",
    });
  });
  return app;
}
