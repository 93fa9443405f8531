import { GraphQLError } from "graphql";

/**
 * Armor's rules build their GraphQLErrors with their own copy of graphql; re-create them with ours so every
 * transport recognises them, and give each a code.
 */
export function ownError(error: GraphQLError | Error, code: string): GraphQLError {
  const source = error as GraphQLError;
  return new GraphQLError(error.message, {
    nodes: source.nodes,
    extensions: { ...source.extensions, code: source.extensions?.code ?? code },
  });
}
