import type { Plugin } from "graphql-yoga";
import { noNulStringsRule } from "../noNulStringsRule.js";

/** Refuses an operation whose string literals hold a NUL character (noNulStringsRule). */
export const refuseNulStrings: Plugin = {
  onValidate: ({ addValidationRule }) => addValidationRule(noNulStringsRule),
};
