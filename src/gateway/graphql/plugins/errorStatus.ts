import type { ExecutionResult } from "graphql";
import type { Plugin } from "graphql-yoga";

const REQUEST_ERROR_CODES = new Set(["GRAPHQL_PARSE_FAILED", "GRAPHQL_VALIDATION_FAILED", "INVALID_INPUT"]);

const codesOf = (result: ExecutionResult) => (result.errors ?? []).map((error) => String(error.extensions?.code));

/** The HTTP status an HTTP GraphQL result gets instead of 200, if any (see errorStatus). */
function statusOf(result: ExecutionResult): number | undefined {
  const codes = codesOf(result);
  if (codes.length === 0) return undefined;
  if (!("data" in result) && codes.every((code) => REQUEST_ERROR_CODES.has(code))) return 400;
  if (codes.every((code) => code === "SERVICE_UNAVAILABLE")) return 503;
  return undefined;
}

/**
 * An operation that never ran because it does not parse, validate or coerce its variables is the client's
 * mistake: 400, whatever it accepts. (GraphQL over HTTP answers 200 to `application/json` clients, which
 * made a typo look like success to anything reading the status first.) One that failed only because a
 * dependency (the database, the rate-limit store) is unavailable is a 503, as on REST: retry later.
 */
export const errorStatus: Plugin = {
  onResultProcess({ result, setResult }) {
    if (Array.isArray(result) || Symbol.asyncIterator in result) return;
    const single = result as ExecutionResult;
    const status = statusOf(single);
    if (status === undefined) return;
    const http = (single.extensions?.http ?? {}) as Record<string, unknown>;
    setResult({ ...single, extensions: { ...single.extensions, http: { ...http, status } } });
  },
};
