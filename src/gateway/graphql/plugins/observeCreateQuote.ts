import { type ExecutionResult, type GraphQLError, Kind, getOperationAST } from "graphql";
import type { Plugin } from "graphql-yoga";
import { isCrossfillError } from "../../../domain/errors.js";
import type { Metrics } from "../../../metrics/createMetrics.js";

const ENDPOINT = "graphql createQuote";

/** The outcome and errorCode of one createQuote field, as REST's quotes are counted (observeRequests). */
function outcomeOf(error: GraphQLError | undefined): { outcome: string; errorCode: string } {
  if (!error) return { outcome: "quoted", errorCode: "" };
  const original = error.originalError;
  if (isCrossfillError(original))
    return { outcome: original.status < 500 ? "refused" : "failed", errorCode: original.errorCode };
  // A masked error is the resolver's own failure; a coded one without its original is an edge's refusal.
  const code = error.extensions?.code;
  return typeof code === "string" && code !== "INTERNAL_SERVER_ERROR"
    ? { outcome: "refused", errorCode: code }
    : { outcome: "failed", errorCode: "UNKNOWN_ERROR" };
}

/**
 * Each createQuote of an executed mutation into `crossfill_quotes_total` (endpoint `graphql createQuote`), by outcome
 * and errorCode like POST /quote: one count per createQuote field (aliases included). Operations refused before they
 * run (parse, validation, limits) are counted by the HTTP histogram only.
 */
export function observeCreateQuote(metrics: Metrics): Plugin {
  return {
    onExecute({ args }) {
      const operation = getOperationAST(args.document, args.operationName);
      if (operation?.operation !== "mutation") return undefined;
      const keys = operation.selectionSet.selections.flatMap((selection) =>
        selection.kind === Kind.FIELD && selection.name.value === "createQuote"
          ? [selection.alias?.value ?? selection.name.value]
          : [],
      );
      if (keys.length === 0) return undefined;
      return {
        onExecuteDone({ result }) {
          if (Symbol.asyncIterator in result) return;
          const errors = (result as ExecutionResult).errors ?? [];
          for (const key of keys) {
            const error = errors.find((candidate) => candidate.path?.[0] === key);
            metrics.quotes.inc({ endpoint: ENDPOINT, ...outcomeOf(error) });
          }
        },
      };
    },
  };
}
