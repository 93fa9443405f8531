import type { ExecutionResult } from "graphql";
import type { Plugin } from "graphql-yoga";

const REQUEST_ERROR_CODES = new Set(["GRAPHQL_PARSE_FAILED", "GRAPHQL_VALIDATION_FAILED", "INVALID_INPUT"]);

function isRequestError(result: ExecutionResult): boolean {
  if ("data" in result || !result.errors?.length) return false;
  return result.errors.every((error) => REQUEST_ERROR_CODES.has(String(error.extensions?.code)));
}

/**
 * An operation that never ran because it does not parse, validate or coerce its variables is the client's
 * mistake: 400, whatever it accepts. (GraphQL over HTTP answers 200 to `application/json` clients, which
 * made a typo look like success to anything reading the status first.)
 */
export const badRequestStatus: Plugin = {
  onResultProcess({ result, setResult }) {
    if (Array.isArray(result) || Symbol.asyncIterator in result) return;
    const single = result as ExecutionResult;
    if (!isRequestError(single)) return;
    const http = (single.extensions?.http ?? {}) as Record<string, unknown>;
    setResult({ ...single, extensions: { ...single.extensions, http: { ...http, status: 400 } } });
  },
};
