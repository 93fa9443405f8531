import { InvalidInputError } from "../../domain/errors.js";

/**
 * How deep a JSON body may nest. The largest legitimate body (a quote with destination calls) is under 10 levels;
 * far deeper ones only exist to exhaust recursive walkers further in (docs/API.md, Errors).
 */
export const MAX_JSON_DEPTH = 64;

const NUL = "\u0000";

/** `txs[1].data`-style paths, from `root` (`body`, `variables`). */
function pathOf(parent: string, key: string | number, root: string): string {
  if (typeof key === "number") return `${parent}[${key}]`;
  return parent === root && root === "body" ? key : `${parent}.${key}`;
}

/**
 * Refuses (400 INVALID_INPUT) a parsed JSON value nested deeper than MAX_JSON_DEPTH, or holding U+0000 in any
 * string or key: Postgres cannot store it (text and jsonb refuse it), so it is bad input, not a 500 later on.
 * Iterative, so the check itself cannot overflow the stack whatever the depth.
 */
export function checkJsonValue(value: unknown, root = "body"): void {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: root, depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item.value === "string") {
      if (item.value.includes(NUL)) {
        throw new InvalidInputError("INVALID_INPUT", `${item.path} must not contain control characters (U+0000)`);
      }
      continue;
    }
    if (typeof item.value !== "object" || item.value === null) continue;
    const depth = item.depth + 1;
    if (depth > MAX_JSON_DEPTH) {
      throw new InvalidInputError(
        "INVALID_INPUT",
        `${root === "body" ? "the request body is" : `${root} are`} nested deeper than ${MAX_JSON_DEPTH} levels`,
      );
    }
    const entries: Array<[string | number, unknown]> = Array.isArray(item.value)
      ? item.value.map((child, index) => [index, child])
      : Object.entries(item.value);
    // Reversed onto the stack, so the first offending field is the one reported.
    for (const [key, child] of entries.reverse()) {
      if (typeof key === "string" && key.includes(NUL)) {
        throw new InvalidInputError(
          "INVALID_INPUT",
          `${pathOf(item.path, key.replaceAll(NUL, "\\u0000"), root)} must not contain control characters (U+0000)`,
        );
      }
      stack.push({ value: child, path: pathOf(item.path, key, root), depth });
    }
  }
}
