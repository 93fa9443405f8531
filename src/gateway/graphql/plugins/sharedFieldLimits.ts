import type { Plugin } from "graphql-yoga";
import { type DocumentNode, Kind, type OperationDefinitionNode, type SelectionNode } from "graphql";
import { isCrossfillError } from "../../../domain/errors.js";
import { type RateLimitDeps, hitRateLimits } from "../../http/hitRateLimits.js";
import { policyFor } from "../../http/policyFor.js";
import type { RouteLimit } from "../../http/routeLimits.js";
import { domainGraphqlError } from "../domainGraphqlError.js";
import type { GraphqlContext } from "../graphqlContext.js";

/**
 * Charges each root field that has a REST twin to that route's per-key limit, once per occurrence: a key
 * listing requests over GraphQL spends the same budget as on GET /requests/v3, so GraphQL is no way around it.
 * Only keyed callers: those fields need a key anyway (their resolvers answer UNAUTHORIZED without one).
 */
export function sharedFieldLimits(
  deps: RateLimitDeps,
  limits: Readonly<Record<string, RouteLimit>>,
): Plugin<GraphqlContext> {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const operation = (args.document as DocumentNode).definitions.find(
        (definition): definition is OperationDefinitionNode =>
          definition.kind === Kind.OPERATION_DEFINITION &&
          (!args.operationName || definition.name?.value === args.operationName),
      );
      const charged: RouteLimit[] = (operation?.selectionSet.selections ?? []).flatMap((selection: SelectionNode) =>
        selection.kind === Kind.FIELD && limits[selection.name.value] ? [limits[selection.name.value]] : [],
      );
      if (charged.length === 0) return;
      const key = await (args.contextValue as GraphqlContext).apiKey().catch(() => undefined);
      if (!key) return;
      try {
        await hitRateLimits(
          deps,
          charged.map((limit) => policyFor(limit, key, () => "unused")),
        );
      } catch (error) {
        if (!isCrossfillError(error)) throw error;
        setResultAndStopExecution({ errors: [domainGraphqlError(error)] });
      }
    },
  };
}
