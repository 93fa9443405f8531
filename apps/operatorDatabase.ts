import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { Config } from "../src/config.js";
import { apiKeyEncryptionKey, requireSetting } from "../src/roleSettings.js";

/** What `npm start` writes in its manifest for the operator commands (apps/runDev.ts). */
export const devnetOperatorFields = z.object({
  /** The embedded Postgres' URL; null when the devnet ran on DATABASE_URL, which the manifest does not copy. */
  databaseUrl: z.string().nullable(),
  /** Which key sealed the devnet's API keys: its public default, or the API_KEY_ENCRYPTION_KEY it was started with. */
  apiKeyEncryptionKey: z.enum(["devnet default", "API_KEY_ENCRYPTION_KEY"]),
});

export type OperatorDatabase = {
  databaseUrl: string;
  /** The key `crossfill keys` seals new keys with (and webhooks sign with). */
  encryptionKey: () => Buffer;
  /** The manifest it came from, when it is the running devnet's. */
  manifestPath?: string;
};

/**
 * The database an operator command (`crossfill keys`, `chains`, …) works on: DATABASE_URL, or without it the devnet
 * that `npm start` runs from this folder, found through its manifest, so trying the commands needs no setting.
 */
export function operatorDatabase(config: Config, role: string): OperatorDatabase {
  if (config.DATABASE_URL)
    return { databaseUrl: config.DATABASE_URL, encryptionKey: () => apiKeyEncryptionKey(config, role) };
  const manifestPath = path.resolve(config.CROSSFILL_DATA_DIR, "manifest.json");
  if (!existsSync(manifestPath))
    throw new Error(
      `DATABASE_URL is required for crossfill ${role}: set it to the service's database, or start the devnet (npm start) and run the command from the same folder (it reads ${manifestPath})`,
    );
  const parsed = devnetOperatorFields.safeParse(JSON.parse(readFileSync(manifestPath, "utf8")));
  if (!parsed.success)
    throw new Error(`${manifestPath} was written by an older npm start: restart it, or set DATABASE_URL`);
  const { databaseUrl, apiKeyEncryptionKey: sealedWith } = parsed.data;
  if (databaseUrl === null)
    throw new Error(
      `the devnet in ${manifestPath} runs on DATABASE_URL: set DATABASE_URL for crossfill ${role} as npm start had it`,
    );
  return {
    databaseUrl,
    manifestPath,
    encryptionKey: () => {
      if (sealedWith === "devnet default")
        return apiKeyEncryptionKey({ ...config, API_KEY_ENCRYPTION_KEY: undefined }, "dev");
      return requireSetting(
        config.API_KEY_ENCRYPTION_KEY,
        "API_KEY_ENCRYPTION_KEY",
        `for crossfill ${role}: the devnet in ${manifestPath} seals API keys with it (set it as npm start had it)`,
      );
    },
  };
}
