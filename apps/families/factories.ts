import type { z } from "zod";
import type { ChainConfig } from "../../src/chains/chainConfig.js";
import type { TestVmType } from "../../src/chains/chainFamily.js";
import type { FAMILIES } from "../../src/chains/families.js";
import { bitcoinFactories } from "./bitcoinFactories.js";
import { evmFactories } from "./evmFactories.js";
import type { FamilyFactories } from "./familyFactories.js";
import { hypevmFactories } from "./hypevmFactories.js";
import { svmFactories } from "./svmFactories.js";

/** The vmTypes of FAMILIES: the families whose keys the environment holds. */
type RegisteredVmType = (typeof FAMILIES)[number]["vmType"];

/**
 * The factories of every family of FAMILIES, by vmType: a family registered there has no chain keys, adapters,
 * indexer or devnet until it has its entry here (the type asks for one of each vmType).
 */
export const FAMILY_FACTORIES = {
  evm: evmFactories,
  bvm: bitcoinFactories,
  svm: svmFactories,
  hypevm: hypevmFactories,
} as const satisfies {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each entry reads only keys of its own schema
  readonly [V in RegisteredVmType]: FamilyFactories<Extract<ChainConfig, { vmType: V }>, any, any, any>;
};

type Factories = typeof FAMILY_FACTORIES;

/**
 * Any family's factories, as a composition lists them (every family of FAMILY_FACTORIES, and a test composition's own
 * beside them).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each family reads only its own chains and keys
export type AnyFamilyFactories = FamilyFactories<any, any, any, any>;

/** The key schemas by vmType, for src/config.ts parseFamilyKeys. */
export const FAMILY_KEY_SCHEMAS = Object.fromEntries(
  Object.entries(FAMILY_FACTORIES).map(([vmType, factories]) => [vmType, factories.keySchema]),
) as { readonly [V in RegisteredVmType]: Factories[V]["keySchema"] };

/**
 * Every family's keys as parsed from the environment (`Record<VmType, keys>`); a test composition's family brings
 * its own (its devnet's).
 */
export type FamilyKeys = { readonly [V in RegisteredVmType]: z.output<Factories[V]["keySchema"]> } & {
  readonly [V in TestVmType]?: unknown;
};

/** What a role's adapters of each family are given (FamilyFactories.roleKeys). */
export type AdapterKeys = { readonly [V in RegisteredVmType]?: ReturnType<Factories[V]["roleKeys"]> } & {
  readonly [V in TestVmType]?: unknown;
};

/** Every family's factories, in registration order (devnets start in it): the composition's default list. */
export function allFamilyFactories(): readonly AnyFamilyFactories[] {
  return Object.values(FAMILY_FACTORIES);
}
