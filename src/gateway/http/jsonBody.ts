import { InvalidInputError } from "../../domain/errors.js";
import { checkJsonValue } from "./checkJsonValue.js";

/** Parses a JSON text of the request: 400 INVALID_INPUT for bad JSON, NUL characters or excessive nesting. */
export function parseJsonText(text: string, root = "body"): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InvalidInputError(
      "INVALID_INPUT",
      `the request ${root === "body" ? "body" : `${root} parameter`} must be valid JSON`,
    );
  }
  checkJsonValue(value, root);
  return value;
}

/** The parsed JSON body, or a 400 INVALID_INPUT naming what is wrong (see parseJsonText). */
export async function jsonBody(request: Request): Promise<unknown> {
  return parseJsonText(await request.text());
}
