import type { z } from "zod";
import { InvalidInputError } from "../../domain/errors.js";

/** Validates input against a schema, answering 400 INVALID_INPUT with the first problem's path. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new InvalidInputError("INVALID_INPUT", `${issue.path.join(".") || "body"}: ${issue.message}`);
}
