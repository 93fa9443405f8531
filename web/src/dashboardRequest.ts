import { GraphqlError } from "./GraphqlError";
import { graphqlRequest } from "./graphqlRequest";
import { sessionKey } from "./sessionKey";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * An operation with the signed-in key. A key that stopped working (revoked meanwhile) signs the tab out; a rate
 * limit (20 operations a second per key) is waited out once.
 */
export async function dashboardRequest<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const key = sessionKey.get();
  if (!key) throw new GraphqlError("not signed in", "UNAUTHORIZED");
  try {
    return await graphqlRequest<T>(query, variables, key);
  } catch (error) {
    if (error instanceof GraphqlError && error.code === "RATE_LIMITED") {
      await pause(1_100);
      return graphqlRequest<T>(query, variables, key);
    }
    if (error instanceof GraphqlError && error.code === "UNAUTHORIZED") {
      location.hash = "#/dashboard";
      sessionKey.clear();
    }
    throw error;
  }
}
