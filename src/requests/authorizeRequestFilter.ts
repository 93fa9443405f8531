import { findApiKeys } from "../../schema/apiKeys.js";
import type { Queryable } from "../../schema/queryable.js";
import { hashApiKey } from "../apiKeys/hashApiKey.js";
import { ForbiddenError, InvalidInputError } from "../domain/errors.js";
import type { FieldCondition, RequestFilter } from "../../schema/requestFilter.js";

/**
 * The spec's ownership rules on a parsed filter: a referrer condition (top level or inside `filters`, negated
 * or not) needs a top-level `apiKey` or the integrator scope; the integrator scope must be the caller's; every `apiKey` value (a key id or the key itself) must resolve to a key
 * of the caller's integrator (403 otherwise). Returns the filter with `apiKey` values replaced by key ids.
 */
export async function authorizeRequestFilter(
  db: Queryable,
  filter: RequestFilter,
  callerIntegrator: string | undefined,
  options: { referrerNeedsApiKey: boolean } = { referrerNeedsApiKey: true },
): Promise<RequestFilter> {
  const all = [...filter.conditions, ...filter.groups.flat()];
  const usesReferrer = all.some((condition) => condition.field === "referrer");
  const topLevelKeys = filter.conditions.some(
    (condition) => condition.field === "apiKey" && !condition.negate && condition.values !== null,
  );
  if (filter.integrator !== undefined && filter.integrator !== callerIntegrator)
    throw new ForbiddenError("the integrator scope must be the authenticating integrator's");
  // v3 only: v2 kept its public referrer filter until its retirement.
  if (options.referrerNeedsApiKey && usesReferrer && !topLevelKeys && filter.integrator === undefined) {
    throw new InvalidInputError(
      "INVALID_INPUT",
      "apiKey: a referrer filter must be paired with a top-level apiKey (comma-separated keys of your integrator)",
    );
  }
  const named = [
    ...new Set(
      all
        .filter((condition) => condition.field === "apiKey")
        .flatMap((condition) => (condition.values ?? []).map(String)),
    ),
  ];
  if (named.length === 0) return filter;
  if (callerIntegrator === undefined)
    throw new ForbiddenError("apiKey: filtering by key needs an authenticated caller");
  const keys = await findApiKeys(db, named, named.map(hashApiKey));
  const idOf = new Map<string, string>();
  for (const value of named) {
    const hash = hashApiKey(value);
    const key = keys.find((candidate) => candidate.id === value || candidate.keyHash.equals(hash));
    if (key) idOf.set(value, key.id);
    if (!key || key.integrator !== callerIntegrator) {
      throw new ForbiddenError("apiKey: every key must belong to the authenticating integrator");
    }
  }
  const resolve = (condition: FieldCondition): FieldCondition =>
    condition.field === "apiKey" && condition.values
      ? { ...condition, values: condition.values.map((value) => idOf.get(String(value))!) }
      : condition;
  return {
    ...filter,
    conditions: filter.conditions.map(resolve),
    groups: filter.groups.map((group) => group.map(resolve)),
  };
}
