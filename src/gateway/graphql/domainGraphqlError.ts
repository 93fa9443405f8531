import { GraphQLError, type ASTNode } from "graphql";
import type { CrossfillError } from "../../domain/errors.js";

/**
 * A domain error as GraphQL answers it: its message, its errorCode as `extensions.code`, its details if any, and
 * the fields a REST body adds (a quote's simulation: errorData, requestId, approxSimulatedBlock, failedCallData).
 */
export function domainGraphqlError(
  error: CrossfillError,
  at: { nodes?: ReadonlyArray<ASTNode> | ASTNode | null; path?: ReadonlyArray<string | number> } = {},
): GraphQLError {
  return new GraphQLError(error.message, {
    nodes: at.nodes,
    path: at.path,
    extensions: { ...error.data, code: error.errorCode, ...(error.details ? { details: error.details } : {}) },
  });
}
