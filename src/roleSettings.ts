import { loadChainsFile } from "./chains/chainConfig.js";
import type { ChainConfig } from "./chains/chainConfig.js";
import type { Config } from "./config.js";

/** What every production role needs from configuration, or a clear error naming the missing variable. */
export function requireSetting<T>(value: T | undefined, name: string, why: string): T {
  if (value === undefined) throw new Error(`${name} is required ${why}`);
  return value;
}

export function productionChains(config: Config): ChainConfig[] {
  return loadChainsFile(
    requireSetting(
      config.CROSSFILL_CHAINS_FILE,
      "CROSSFILL_CHAINS_FILE",
      "outside the devnet (see README: real chains)",
    ),
  );
}

/** The gateway's quote settings (its prices: rolePrices). */
export function apiSettings(config: Config) {
  return {
    serviceFeeBps: config.SERVICE_FEE_BPS,
    defaultSlippageBps: config.DEFAULT_SLIPPAGE_BPS,
    quoteTtlSeconds: config.QUOTE_TTL_SECONDS,
    overpaymentToleranceBps: config.OVERPAYMENT_TOLERANCE_BPS,
    sponsoredAppFeeMaxBps: config.SPONSORED_APP_FEE_MAX_BPS,
  };
}

/**
 * The gateway's status cache, when the bus it is given carries the workers' updates (`busCarriesUpdates`: Redis,
 * or worker and gateway in one process); undefined reads Postgres on every lookup.
 */
export function statusCacheSettings(config: Config, busCarriesUpdates: boolean) {
  if (!busCarriesUpdates || config.STATUS_CACHE_TTL_MS === 0) return undefined;
  return { ttlMs: config.STATUS_CACHE_TTL_MS, maxEntries: config.STATUS_CACHE_MAX_ENTRIES };
}

// Dev only: a fixed, public server key so devnet data stays readable across restarts. Never used outside `dev`.
const DEV_API_KEY_ENCRYPTION_KEY = Buffer.from(
  "6372c3b7f11d5a0e2c8a9d4f0b1e3a5c7d9f2b4e6a8c0e1f3a5b7c9d1e3f5a70",
  "hex",
);

/** The server key that seals API keys' webhook secrets; the devnet has a fixed one. */
export function apiKeyEncryptionKey(config: Config, role: string): Buffer {
  if (role === "dev") return config.API_KEY_ENCRYPTION_KEY ?? DEV_API_KEY_ENCRYPTION_KEY;
  return requireSetting(
    config.API_KEY_ENCRYPTION_KEY,
    "API_KEY_ENCRYPTION_KEY",
    `for crossfill ${role} (32 bytes of hex)`,
  );
}
