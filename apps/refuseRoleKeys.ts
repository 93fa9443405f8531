import { type AnyFamilyFactories, type FamilyKeys, allFamilyFactories } from "./families/factories.js";
import type { RefusingRole } from "./families/familyFactories.js";

/**
 * Throws, naming the variables, when `role` was given a key it must not hold (each family's `keysRefused`): the
 * gateway faces the internet and never holds a key that only the worker signs with; an indexer signs nothing.
 */
export function refuseRoleKeys(
  keys: FamilyKeys,
  role: RefusingRole,
  families: readonly AnyFamilyFactories[] = allFamilyFactories(),
): void {
  const byFamily = keys as Readonly<Record<string, unknown>>;
  const refused = families.flatMap((factories) => factories.keysRefused?.(byFamily[factories.vmType], role) ?? []);
  if (refused.length > 0)
    throw new Error(
      `crossfill ${role} refuses to start holding ${refused.join(", ")}: ${
        role === "indexer"
          ? "signing keys, which only the worker holds: an indexer only records chain facts"
          : "keys that move funds, which only the worker signs with"
      }; remove them from this ` + "role's environment (docs/OPERATIONS.md, Keys each role holds)",
    );
}
