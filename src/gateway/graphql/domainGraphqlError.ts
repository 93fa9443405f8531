import { GraphQLError, type ASTNode } from "graphql";
import type { CrossfillError } from "../../domain/errors.js";

/** A domain error as GraphQL answers it: its message, its errorCode as `extensions.code`, its details if any. */
export function domainGraphqlError(
  error: CrossfillError,
  at: { nodes?: ReadonlyArray<ASTNode> | ASTNode | null; path?: ReadonlyArray<string | number> } = {},
): GraphQLError {
  return new GraphQLError(error.message, {
    nodes: at.nodes,
    path: at.path,
    extensions: { code: error.errorCode, ...(error.details ? { details: error.details } : {}) },
  });
}
