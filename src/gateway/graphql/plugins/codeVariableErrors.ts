import type { Plugin } from "graphql-yoga";
import { ownError } from "../ownError.js";

/**
 * Variable values that do not coerce (an unknown enum value, a malformed DateTime) fail before any resolver runs,
 * with no data and no code: they are bad input like any other, INVALID_INPUT.
 */
export const codeVariableErrors: Plugin = {
  onExecute: () => ({
    onExecuteDone: ({ result, setResult }) => {
      if (!("errors" in result) || !result.errors?.length || "data" in result) return;
      setResult({ ...result, errors: result.errors.map((error) => ownError(error, "INVALID_INPUT")) });
    },
  }),
};
