import { z } from "zod";

/** What every chain of the chains file has, whatever its VM; each family's entry spreads these into its own. */
export const commonChainFields = {
  name: z.string().regex(/^[a-z0-9-]+$/, "lowercase letters, digits and dashes"),
  displayName: z.string().optional(),
  explorerUrl: z.string().default(""),
  startBlock: z.number().int().min(0).default(0),
  /**
   * Present: the chain is private. Its requests are served (quotes, status by id) but left out of request listings,
   * search and analytics unless a client names this UUID in `privateChainsToInclude`.
   */
  privateId: z.uuid().optional(),
  /**
   * Blocks a deposit must have before it is filled, tiered by its USD value: the largest `blocks` whose
   * `minUsd` the deposit reaches applies. None (the devnet's default) fills at once.
   */
  confirmations: z
    .array(
      z.object({
        minUsd: z.string().regex(/^\d+(\.\d+)?$/, "a decimal USD amount"),
        blocks: z.number().int().min(0).max(10_000),
      }),
    )
    .default([]),
};

export const nativeCurrencySchema = z.object({ symbol: z.string(), name: z.string(), decimals: z.number().int() });
