import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const resultsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "results");

/**
 * Writes one benchmark's result as `bench/results/<name>-<ISO date>.json` and returns the path. The ISO
 * date's colons become dashes, so the name is valid on every file system.
 */
export function writeResult(name: string, date: Date, result: unknown): string {
  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `${name}-${date.toISOString().replaceAll(":", "-")}.json`);
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  return file;
}
