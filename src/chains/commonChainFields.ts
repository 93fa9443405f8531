import { z } from "zod";

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
