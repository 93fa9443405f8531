import type { Plugin } from "graphql-yoga";
import { fieldOccurrencesRule } from "../fieldOccurrencesRule.js";

/** Refuses an operation that asks a field that reads far more than it returns more often than `perOperation` allows. */
export function limitExpensiveFields(perOperation: Readonly<Record<string, number>>): Plugin {
  return {
    onValidate: ({ addValidationRule }) => addValidationRule(fieldOccurrencesRule(perOperation)),
  };
}
