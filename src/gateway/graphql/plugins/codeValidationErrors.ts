import type { Plugin } from "graphql-yoga";
import { ownError } from "../ownError.js";

/** Gives every validation error our copy of GraphQLError and the code GRAPHQL_VALIDATION_FAILED. */
export const codeValidationErrors: Plugin = {
  onValidate:
    () =>
    ({ result, setResult }) => {
      if (result.length > 0) setResult(result.map((error) => ownError(error, "GRAPHQL_VALIDATION_FAILED")));
    },
};
