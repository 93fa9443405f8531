import { GraphQLError } from "graphql";
import { type Plugin, createSchema, createYoga } from "graphql-yoga";

/**
 * A Yoga over a two-field schema with only the plugins given, for a plugin's own test: `hello(name)` answers,
 * `unavailable` fails as a resolver whose dependency is down (SERVICE_UNAVAILABLE) does.
 */
export function pluginYoga(plugins: Plugin[]) {
  const yoga = createYoga({
    schema: createSchema({
      typeDefs: "type Query { hello(name: String, times: Int): String, unavailable: String }",
      resolvers: {
        Query: {
          hello: (_: unknown, args: { name?: string }) => `hello ${args.name ?? "you"}`,
          unavailable: () => {
            throw new GraphQLError("the database is unavailable", { extensions: { code: "SERVICE_UNAVAILABLE" } });
          },
        },
      },
    }),
    plugins,
    maskedErrors: false,
    logging: false,
  });
  /** Posts an operation as an `application/json` client does; the status and the body. */
  return async (query: string, variables?: Record<string, unknown>) => {
    const response = await yoga.fetch("http://localhost/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as {
      data?: unknown;
      errors?: Array<{ message: string; extensions?: { code?: string } }>;
    };
    return { status: response.status, body, codes: (body.errors ?? []).map((error) => error.extensions?.code) };
  };
}
