import type { z } from "zod";
import type { VmType } from "../../src/chains/adapter.js";
import type { ChainConfig } from "../../src/chains/chainConfig.js";
import { bitcoinFactories } from "./bitcoinFactories.js";
import { evmFactories } from "./evmFactories.js";
import type { FamilyFactories } from "./familyFactories.js";
import { svmFactories } from "./svmFactories.js";

/**
 * The factories of every family of FAMILIES, by vmType: a family registered there has no chain keys, adapters,
 * indexer or devnet until it has its entry here (the type asks for one of each vmType).
 */
export const FAMILY_FACTORIES = {
  evm: evmFactories,
  bvm: bitcoinFactories,
  svm: svmFactories,
} as const satisfies {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each entry reads only keys of its own schema
  readonly [V in VmType]: FamilyFactories<Extract<ChainConfig, { vmType: V }>, any, any>;
};

type Factories = typeof FAMILY_FACTORIES;

/** The key schemas by vmType, for src/config.ts parseFamilyKeys. */
export const FAMILY_KEY_SCHEMAS = Object.fromEntries(
  Object.entries(FAMILY_FACTORIES).map(([vmType, factories]) => [vmType, factories.keySchema]),
) as { readonly [V in VmType]: Factories[V]["keySchema"] };

/** Every family's keys as parsed from the environment (`Record<VmType, keys>`). */
export type FamilyKeys = { readonly [V in VmType]: z.output<Factories[V]["keySchema"]> };

/** What a role's adapters of each family are given (FamilyFactories.roleKeys). */
export type AdapterKeys = { readonly [V in VmType]?: ReturnType<Factories[V]["roleKeys"]> };

/** Every family's factories, in registration order (devnets start in it). */
export function allFamilyFactories(): readonly Factories[VmType][] {
  return Object.values(FAMILY_FACTORIES);
}
