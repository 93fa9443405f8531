import type { z } from "zod";
import { InvalidInputError } from "../../domain/errors.js";

/** The parsed JSON body, or a 400 INVALID_INPUT naming what is wrong. */
export async function jsonBody(request: Request): Promise<unknown> {
  try {
    return await request.json();
  } catch {
    throw new InvalidInputError("INVALID_INPUT", "the request body must be valid JSON");
  }
}

/** Validates input against a schema, answering 400 INVALID_INPUT with the first problem's path. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new InvalidInputError("INVALID_INPUT", `${issue.path.join(".") || "body"}: ${issue.message}`);
}
