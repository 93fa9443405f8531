import { readFileSync } from "node:fs";
import { z } from "zod";
import type { TestFamilyChainConfig } from "./chainFamily.js";
import { FAMILIES } from "./families.js";

export { bitcoinChainConfigSchema, BITCOIN_CONFIRMATIONS } from "./bitcoin/bitcoinChainFamily.js";
export type { BitcoinChainConfig } from "./bitcoin/bitcoinChainFamily.js";
export { currencyConfigSchema, evmChainConfigSchema, isEvmChain } from "./evm/evmChainFamily.js";
export type { EvmChainConfig } from "./evm/evmChainFamily.js";
export type { SvmChainConfig } from "./svm/svmChainFamily.js";

type SchemasOf<T extends readonly { configSchema: unknown }[]> = { -readonly [K in keyof T]: T[K]["configSchema"] };
type FamilySchemas = SchemasOf<typeof FAMILIES>;

/** A chain of the chains file, one entry schema per family of FAMILIES; `vmType` absent means EVM, so chains files written before Bitcoin still load. */
export const chainConfigSchema = z.preprocess(
  (value) =>
    value !== null && typeof value === "object" && !("vmType" in value) ? { ...value, vmType: "evm" } : value,
  z.discriminatedUnion("vmType", FAMILIES.map((family) => family.configSchema) as FamilySchemas),
);

/** The chains file: the devnet manifest is one, a hand-written file for real chains is another. */
export const chainsFileSchema = z.object({ chains: z.array(chainConfigSchema).min(1) });

/**
 * A configured chain: an entry of the chains file (a family of FAMILIES), or a chain of a family a test composition
 * registers beside them (TestFamilyChainConfig, `vmType` `test…`), which the service reads through its family.
 */
export type ChainConfig = z.infer<typeof chainConfigSchema> | TestFamilyChainConfig;

export function loadChainsFile(path: string): ChainConfig[] {
  const parsed = chainsFileSchema.safeParse(JSON.parse(readFileSync(path, "utf8")));
  if (!parsed.success) throw new Error(`invalid chains file ${path}: ${z.prettifyError(parsed.error)}`);
  return parsed.data.chains;
}
