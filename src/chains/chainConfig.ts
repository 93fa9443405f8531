import { readFileSync } from "node:fs";
import { z } from "zod";
import { evmFamily } from "./evm/evmFamily.js";

// Only EVM chains are configured here so far; another family brings its own schema and validator.
const address = z
  .string()
  .refine((value) => evmFamily.address.parse(value) !== undefined, "expected a 20-byte hex address");

export const currencyConfigSchema = z.object({
  symbol: z.string().min(1),
  name: z.string().min(1).optional(),
  address,
  decimals: z.number().int().min(0).max(36),
});

export const chainConfigSchema = z.object({
  id: z
    .number()
    .int()
    .positive()
    .refine((id) => id !== 1337 && id !== 8253038, {
      message: "chain ids 1337 and 8253038 are reserved for the perps exchange and Bitcoin",
    }),
  name: z.string().regex(/^[a-z0-9-]+$/, "lowercase letters, digits and dashes"),
  displayName: z.string().optional(),
  vmType: z.literal("evm").default("evm"),
  rpcUrl: z.string().url(),
  wsUrl: z.string().url().optional(),
  explorerUrl: z.string().default(""),
  blockTimeSeconds: z.number().positive().default(2),
  startBlock: z.number().int().min(0).default(0),
  /** How long one RPC call may take before it fails as REQUEST_TIMED_OUT (the client's default: 10 s). */
  rpcTimeoutMs: z.number().int().positive().optional(),
  depository: address,
  receiver: address,
  nativeCurrency: z
    .object({ symbol: z.string(), name: z.string(), decimals: z.number().int() })
    .default({ symbol: "ETH", name: "Ether", decimals: 18 }),
  currencies: z.array(currencyConfigSchema).default([]),
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
});

/** The chains file: the devnet manifest is one, a hand-written file for real chains is another. */
export const chainsFileSchema = z.object({ chains: z.array(chainConfigSchema).min(1) });

export type ChainConfig = z.infer<typeof chainConfigSchema>;

export function loadChainsFile(path: string): ChainConfig[] {
  const parsed = chainsFileSchema.safeParse(JSON.parse(readFileSync(path, "utf8")));
  if (!parsed.success) throw new Error(`invalid chains file ${path}: ${z.prettifyError(parsed.error)}`);
  return parsed.data.chains;
}
