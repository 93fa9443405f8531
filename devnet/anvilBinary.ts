import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// @foundry-rs/anvil installs one of these as an optional dependency, matching the machine.
const platformPackages: Record<string, string> = {
  "linux-x64": "@foundry-rs/anvil-linux-amd64",
  "linux-arm64": "@foundry-rs/anvil-linux-arm64",
  "darwin-x64": "@foundry-rs/anvil-darwin-amd64",
  "darwin-arm64": "@foundry-rs/anvil-darwin-arm64",
  "win32-x64": "@foundry-rs/anvil-win32-amd64",
};

/**
 * Path of the native anvil binary. Spawning it directly (not the npm `.bin/anvil` Node wrapper)
 * saves a Node process per chain and lets `kill` reach anvil itself. Falls back to the wrapper.
 */
export function anvilBinary(platform: string = process.platform, arch: string = process.arch): string {
  const require = createRequire(import.meta.url);
  const exe = platform === "win32" ? "anvil.exe" : "anvil";
  const pkg = platformPackages[`${platform}-${arch}`];
  if (pkg) {
    try {
      const candidate = join(dirname(require.resolve(`${pkg}/package.json`)), "bin", exe);
      if (existsSync(candidate)) return candidate;
    } catch {
      // not installed for this platform: try the wrapper below
    }
  }
  const wrapper = join(
    dirname(fileURLToPath(import.meta.url)),
    "..",
    "node_modules",
    ".bin",
    platform === "win32" ? "anvil.cmd" : "anvil",
  );
  if (existsSync(wrapper)) return wrapper;
  throw new Error(
    `anvil not found: install @foundry-rs/anvil (looked for ${pkg ?? `a ${platform}-${arch} package`} and ${wrapper})`,
  );
}
