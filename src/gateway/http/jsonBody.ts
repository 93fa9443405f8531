import { InvalidInputError } from "../../domain/errors.js";

/** The parsed JSON body, or a 400 INVALID_INPUT naming what is wrong. */
export async function jsonBody(request: Request): Promise<unknown> {
  try {
    return await request.json();
  } catch {
    throw new InvalidInputError("INVALID_INPUT", "the request body must be valid JSON");
  }
}
