import { GraphQLError, type ValidationRule } from "graphql";

/**
 * A validation rule: each named root field at most so many times in one document (aliases and fragments
 * included). The cost and alias limits price every field alike; this keeps one operation from running, say,
 * fifteen year-long `requestStats` aggregations at once.
 */
export function fieldOccurrencesRule(limits: Readonly<Record<string, number>>): ValidationRule {
  return (context) => {
    const seen = new Map<string, number>();
    return {
      Field(node) {
        const name = node.name.value;
        const limit = limits[name];
        if (limit === undefined) return;
        const count = (seen.get(name) ?? 0) + 1;
        seen.set(name, count);
        if (count === limit + 1) {
          context.reportError(
            new GraphQLError(`at most ${limit} ${name} per operation`, {
              nodes: [node],
              extensions: { code: "INVALID_INPUT" },
            }),
          );
        }
      },
    };
  };
}
