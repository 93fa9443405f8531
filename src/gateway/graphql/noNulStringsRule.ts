import { type ASTNode, GraphQLError, Kind, type ValidationRule } from "graphql";

/**
 * Refuses string literals holding U+0000 in the document (`request(id: "a\u0000b")`), naming the argument or
 * input field: Postgres cannot store the character, so it is bad input (INVALID_INPUT, HTTP 400), not a 500.
 * Variables get the same check with the request's JSON (checkGraphqlRequest, and onSubscribe over graphql-ws).
 */
export const noNulStringsRule: ValidationRule = (context) => ({
  StringValue(node, _key, parent, _path, ancestors) {
    if (!node.value.includes("\u0000")) return;
    // The literal's own argument or field is its parent, which `ancestors` leaves out.
    const named = [...ancestors, parent]
      .reverse()
      .find((ancestor): ancestor is ASTNode & { name: { value: string } } =>
        [Kind.ARGUMENT, Kind.OBJECT_FIELD].includes((ancestor as ASTNode).kind as Kind),
      );
    context.reportError(
      new GraphQLError(`${named?.name.value ?? "a string"} must not contain control characters (U+0000)`, {
        nodes: [node],
        extensions: { code: "INVALID_INPUT" },
      }),
    );
  },
});
