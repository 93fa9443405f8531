import type { Config } from "./config.js";

/** The devnet's static USD prices (`npm start`, tests): made-up numbers, never a default outside the devnet. */
export const DEVNET_PRICES: Readonly<Record<string, string>> = Object.freeze({
  ETH: "3000",
  WETH: "3000",
  USDC: "1",
  BTC: "60000",
  // The native currency of chain 999, the perps exchange's EVM chain.
  HYPE: "40",
  SOL: "150",
});

/**
 * The USD prices a role quotes and refunds with. The only price source is a static table, so `api` and `worker`
 * start only with `PRICES` given explicitly: fixed default prices would quote real money at made-up rates. `dev`
 * falls back to the devnet's.
 */
export function rolePrices(config: Config, role: string): Readonly<Record<string, string>> {
  // An empty list (`PRICES=`) prices nothing: as good as none.
  if (config.PRICES && Object.keys(config.PRICES).length > 0) return config.PRICES;
  if (role === "dev") return DEVNET_PRICES;
  throw new Error(
    `PRICES is required for crossfill ${role}: prices come from a static table (no live price feed yet), and ` +
      `quotes, fills and refunds would otherwise use made-up numbers. Set the USD price of every currency symbol ` +
      `of the chains file, e.g. PRICES=ETH=3150.25,WETH=3150.25,USDC=1,BTC=97000, and keep it current ` +
      `(docs/OPERATIONS.md, "Prices")`,
  );
}
