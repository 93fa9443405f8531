import type { IncomingMessage } from "node:http";
import { text } from "node:stream/consumers";
import type { Context } from "hono";
import { InvalidInputError } from "../../domain/errors.js";
import { checkJsonValue } from "./checkJsonValue.js";
import { lengthFramed } from "./limitBody.js";

/**
 * Parses a JSON text of the request: 400 INVALID_INPUT for bad JSON, NUL characters or excessive nesting. A body
 * that is no JSON and was sent as another type (a form, as `curl -d` sends) is told once how to send it.
 */
export function parseJsonText(text: string, root = "body", contentType?: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    if (root === "body" && contentType && !/json/i.test(contentType))
      throw new InvalidInputError(
        "INVALID_INPUT",
        `the request body must be JSON, sent with content-type: application/json (this one is ${contentType.split(";")[0].trim()})`,
      );
    throw new InvalidInputError(
      "INVALID_INPUT",
      `the request ${root === "body" ? "body" : `${root} parameter`} must be valid JSON`,
    );
  }
  checkJsonValue(value, root);
  return value;
}

/** The parsed JSON body, or a 400 INVALID_INPUT naming what is wrong (see parseJsonText). */
export async function jsonBody(c: Context): Promise<unknown> {
  return parseJsonText(await bodyText(c), "body", c.req.header("content-type"));
}

/**
 * The body as text. Under the node server, a body no one has started reading is read from Node's own message: the
 * WHATWG `Request` it would otherwise build cost about 5 % of the API's CPU per quote. Its size was
 * judged by `limitBody` (the Content-Length) or is counted there (chunked, already read into `c.req.raw`).
 */
function bodyText(c: Context): Promise<string> {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const unread =
    incoming !== undefined && incoming.readableFlowing === null && !incoming.readableEnded && lengthFramed(c);
  // stream/consumers' text() also fails when the client goes away mid-body, instead of waiting forever
  return unread ? text(incoming) : c.req.raw.text();
}
