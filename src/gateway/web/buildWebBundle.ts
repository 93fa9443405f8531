import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const WEB = fileURLToPath(new URL("../../../web/", import.meta.url));
/** Where the built explorer lives: index.html and the content-hashed files under assets/. */
export const WEB_DIST = path.join(WEB, "dist");
/** The URL path the hashed files are served under. */
export const WEB_ASSETS_PATH = "/explorer/assets/";
// Which sources a build was made from, so a checkout with changed sources is rebuilt rather than served stale.
const SOURCE_STAMP = path.join(WEB_DIST, "source.sha256");

// Two arrows passing each other (a cross-chain fill), inline: the page's policy allows data: images, and no request.
const FAVICON = `data:image/svg+xml,${encodeURIComponent(
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1f4fd1"/>` +
    `<path d="M7 11h15l-4-4M25 21H10l4 4" stroke="#fff" stroke-width="3" fill="none" stroke-linecap="round" stroke-linejoin="round"/></svg>`,
)}`;

/** A digest of web/src, the installed packages (the lockfile) and the page template: what the bundle is made of. */
function sourceDigest(): string {
  const hash = createHash("sha256");
  const sources = path.join(WEB, "src");
  for (const file of readdirSync(sources, { recursive: true, encoding: "utf8" }).sort()) {
    const full = path.join(sources, file);
    if (statSync(full).isFile()) hash.update(file).update(readFileSync(full));
  }
  hash.update(readFileSync(new URL("../../../package-lock.json", import.meta.url)));
  // …and this file, which writes the page itself (its head, the favicon).
  hash.update(readFileSync(fileURLToPath(import.meta.url)));
  return hash.digest("hex");
}

/**
 * Bundles web/ (Preact) with esbuild into web/dist: content-hashed script and style, and an index.html naming
 * them. Built in a scratch folder and renamed into place, so a reader never sees half a build.
 */
export async function buildWebBundle(): Promise<void> {
  const digest = sourceDigest();
  const scratch = `${WEB_DIST}.${process.pid}.${Date.now()}`;
  const result = await build({
    entryPoints: [path.join(WEB, "src", "main.tsx")],
    outdir: path.join(scratch, "assets"),
    entryNames: "[name]-[hash]",
    assetNames: "[name]-[hash]",
    bundle: true,
    minify: true,
    sourcemap: false,
    format: "esm",
    target: "es2020",
    jsx: "automatic",
    jsxImportSource: "preact",
    metafile: true,
    logLevel: "warning",
  });
  const outputs = Object.keys(result.metafile.outputs).map((file) => path.basename(file));
  const script = outputs.find((file) => file.endsWith(".js"));
  const style = outputs.find((file) => file.endsWith(".css"));
  writeFileSync(path.join(scratch, path.basename(SOURCE_STAMP)), digest);
  writeFileSync(
    path.join(scratch, "index.html"),
    `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Crossfill explorer</title><link rel="icon" href="${FAVICON}">${style ? `<link rel="stylesheet" href="${WEB_ASSETS_PATH}${style}">` : ""}
<script type="module" src="${WEB_ASSETS_PATH}${script}"></script></head>
<body><div id="app"></div><noscript>The explorer needs JavaScript; the API is at /graphql.</noscript></body></html>
`,
  );
  const previous = `${scratch}.old`;
  try {
    if (existsSync(WEB_DIST)) renameSync(WEB_DIST, previous);
    renameSync(scratch, WEB_DIST);
  } finally {
    rmSync(previous, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The bundle in web/dist was made from the sources checked out now. */
function upToDate(): boolean {
  return existsSync(SOURCE_STAMP) && readFileSync(SOURCE_STAMP, "utf8") === sourceDigest();
}

/**
 * Builds the bundle when web/dist is missing or was made from other sources: `npm ci && npm start` serves the
 * explorer with no extra step, and a pull that changed web/ is not served stale.
 */
export async function ensureWebBundle(): Promise<void> {
  if (upToDate()) return;
  try {
    await buildWebBundle();
  } catch (error) {
    // Another process starting at the same moment may have put its build in place first: that one serves.
    if (!upToDate()) throw error;
  }
}
