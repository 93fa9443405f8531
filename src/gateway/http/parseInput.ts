import type { z } from "zod";
import { invalidInput } from "../../domain/invalidInput.js";

/** Validates input against a schema, answering 400 INVALID_INPUT with the first problem's path. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const parsed = schema.safeParse(input, { reportInput: true });
  if (parsed.success) return parsed.data;
  throw invalidInput(parsed.error);
}
