import { z } from "zod";

/**
 * How one currency is priced (src/pricing/chainPriceFeeds.ts): its Pyth feed id (the `pyth` source), its
 * Chainlink-style aggregator on this chain (the `aggregator` source; a family whose adapter reads aggregators: EVM),
 * and the oldest price of it a quote may use (PRICE_MAX_AGE_SECONDS when unset).
 */
export const currencyPriceSchema = z
  .object({
    pythFeedId: z
      .string()
      .regex(/^(0x)?[0-9a-fA-F]{64}$/, "a 32-byte hex Pyth feed id")
      .optional(),
    aggregator: z.string().min(1).optional(),
    maxAgeSeconds: z.number().int().min(1).optional(),
  })
  .strict();

export type CurrencyPriceConfig = z.infer<typeof currencyPriceSchema>;

/** What every chain of the chains file has, whatever its VM; each family's entry spreads these into its own. */
export const commonChainFields = {
  name: z.string().regex(/^[a-z0-9-]+$/, "lowercase letters, digits and dashes"),
  displayName: z.string().optional(),
  explorerUrl: z.string().default(""),
  /** What `/chains` shows of the chain for wallets and clients; empty (or none) when the entry gives none. */
  explorerName: z.string().optional(),
  iconUrl: z.string().optional(),
  tags: z.array(z.string().min(1)).optional(),
  /** The chain an L2 settles on, as `baseChainId`; the chain itself when unset. */
  baseChainId: z.number().int().positive().optional(),
  startBlock: z.number().int().min(0).default(0),
  /**
   * Present: the chain is private. Its requests are served (quotes, status by id) but left out of request listings,
   * search and analytics unless a client names this UUID in `privateChainsToInclude`.
   */
  privateId: z.uuid().optional(),
  /**
   * Blocks a deposit must have before it is filled: the strictest tier it reaches, a tier reached by a USD value
   * (`minUsd`) or by the deposit's own amount (`minAmounts`, decimal in the currency's units by symbol, e.g.
   * `{"BTC": "0.5"}`: no price needed); a tier with neither applies to all. None (the devnet's default) fills at once.
   */
  confirmations: z
    .array(
      z.object({
        minUsd: z
          .string()
          .regex(/^\d+(\.\d+)?$/, "a decimal USD amount")
          .optional(),
        minAmounts: z.record(z.string().min(1), z.string().regex(/^\d+(\.\d+)?$/, "a decimal amount")).optional(),
        blocks: z.number().int().min(0).max(10_000),
      }),
    )
    .default([]),
  /**
   * The price feeds of currencies, by symbol (the price key: one price for a symbol on every chain). A chain may name
   * an aggregator it hosts for a symbol it does not carry (BTC/USD on an EVM chain).
   */
  prices: z.record(z.string().min(1), currencyPriceSchema).default({}),
};

/** How a currency is shown to clients (its `metadata`): a logo, and whether the operator vouches for it (default yes). */
export const currencyPresentationFields = {
  logoURI: z.string().optional(),
  verified: z.boolean().optional(),
};

export const nativeCurrencySchema = z.object({
  symbol: z.string(),
  name: z.string(),
  decimals: z.number().int(),
  logoURI: z.string().optional(),
});
