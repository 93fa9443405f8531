import type { z } from "zod";
import { InvalidInputError } from "./errors.js";

/**
 * The 400 INVALID_INPUT for a failed parse, naming the first problem's path (`root` when it is the whole input) and
 * saying what to do: a field that is absent is "required", not zod's "Invalid input: expected string, received
 * undefined". Parse with `{ reportInput: true }` so an absent field can be told from a wrong one.
 */
export function invalidInput(error: z.ZodError, root = "body", details?: Record<string, unknown>): InvalidInputError {
  const issue = error.issues[0];
  const absent = issue.code === "invalid_type" && "input" in issue && issue.input === undefined;
  const path = issue.path.join(".") || root;
  return new InvalidInputError("INVALID_INPUT", `${path}: ${absent ? "required" : issue.message}`, details);
}
