import type { z } from "zod";
import { InvalidInputError } from "../domain/errors.js";

/** Runs a query schema over single-valued parameters; 400 naming the first bad parameter. */
export function validateQuery(schema: z.ZodType, params: Record<string, string[]>): void {
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(params).map(([name, values]) => [name, values[0]])));
  if (parsed.success) return;
  const issue = parsed.error.issues[0];
  throw new InvalidInputError("INVALID_INPUT", `${issue.path.join(".")}: ${issue.message}`);
}
