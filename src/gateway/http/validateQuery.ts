import type { z } from "zod";
import { InvalidInputError } from "../../domain/errors.js";
import { invalidInput } from "../../domain/invalidInput.js";

/** Runs a query schema over the parameters, each of which may be given once; 400 naming the first bad parameter. */
export function validateQuery<T extends z.ZodType>(schema: T, params: Record<string, string[]>): z.infer<T> {
  for (const [name, values] of Object.entries(params)) {
    if (values.length > 1) throw new InvalidInputError("INVALID_INPUT", `${name}: may be given once`);
  }
  const parsed = schema.safeParse(
    Object.fromEntries(Object.entries(params).map(([name, values]) => [name, values[0]])),
    { reportInput: true },
  );
  if (parsed.success) return parsed.data;
  throw invalidInput(parsed.error, "query");
}
