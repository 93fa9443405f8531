/**
 * Whether an `If-None-Match` header names `etag` (RFC 9110 §13.1.2: `*`, or a list compared weakly, so a
 * `W/"x"` a proxy weakened still matches `"x"`).
 */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  const wanted = opaque(etag);
  return ifNoneMatch.split(",").some((tag) => tag.trim() === "*" || opaque(tag) === wanted);
}
