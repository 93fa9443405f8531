#!/usr/bin/env node
// The registry this project is built against serves only linux-x64 builds of platform packages, so
// `npm install` leaves the other platforms' optional packages out of package-lock.json and `npm ci`
// then refuses the lock as out of sync. This adds the missing entries with their os/cpu, which every
// platform's npm skips or fetches exactly as it would from a complete lock. Run after `npm install`.
import { readFileSync, writeFileSync } from "node:fs";

const OS = ["android", "darwin", "freebsd", "linux", "openbsd", "openharmony", "sunos", "win32", "aix", "netbsd"];
const CPU = ["arm64", "x64", "arm", "ia32", "loong64", "ppc64", "riscv64", "s390x", "mips64el", "wasm32"];
const lockPath = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(lockPath, "utf8"));
const packages = lock.packages;

function platformOf(name) {
  const parts = name.split("/").pop().split("-");
  const os =
    parts.find((p) => OS.includes(p)) ??
    (parts.includes("windows") ? "win32" : parts.includes("macos") ? "darwin" : undefined);
  const cpu =
    parts.find((p) => CPU.includes(p)) ??
    (parts.includes("amd64")
      ? "x64"
      : parts.includes("eabi") || parts.includes("gnueabihf") || parts.includes("musleabihf")
        ? "arm"
        : undefined);
  const libc =
    parts.includes("musl") || parts.includes("musleabihf")
      ? "musl"
      : parts.includes("gnu") || parts.includes("gnueabihf")
        ? "glibc"
        : undefined;
  return { os, cpu, libc };
}

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = path === "" ? "node_modules/" : `${path}/node_modules/`;
    if (packages[`${base}${dep}`] || packages[`node_modules/${dep}`]) continue;
    const { os, cpu, libc } = platformOf(dep);
    if (!os || (os === "linux" && cpu === "x64" && libc !== "musl")) continue;
    packages[`node_modules/${dep}`] = {
      version,
      optional: true,
      ...(os ? { os: [os] } : {}),
      ...(cpu ? { cpu: [cpu] } : {}),
      ...(libc ? { libc: [libc] } : {}),
    };
    added += 1;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : a > b ? 1 : 0)),
);
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${added} platform stub entries`);
