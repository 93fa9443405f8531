import { createHmac, timingSafeEqual } from "node:crypto";
import { InvalidInputError } from "../domain/errors.js";
import type { Keyset, SortDirection, SortKey } from "../../schema/requestFilter.js";

type CursorBody = { s: SortKey; d: SortDirection; v: string; i: string };

const mac = (secret: Buffer, payload: string) => createHmac("sha256", secret).update(payload).digest().subarray(0, 16);

/** An opaque, signed cursor: the last row's sort value and id, bound to the sort it was made for. */
export function encodeCursor(
  secret: Buffer,
  sort: { sortBy: SortKey; sortDirection: SortDirection },
  keyset: Keyset,
): string {
  const payload = Buffer.from(
    JSON.stringify({ s: sort.sortBy, d: sort.sortDirection, v: keyset.value, i: keyset.id } satisfies CursorBody),
  ).toString("base64url");
  return `${payload}.${mac(secret, payload).toString("base64url")}`;
}

/** The keyset of a cursor from encodeCursor; 400 naming `continuation` when it was altered or made for another sort. */
export function decodeCursor(
  secret: Buffer,
  sort: { sortBy: SortKey; sortDirection: SortDirection },
  cursor: string,
): Keyset {
  const invalid = (why: string) => new InvalidInputError("INVALID_INPUT", `continuation: ${why}`);
  const [payload, signature, extra] = cursor.split(".");
  if (!payload || !signature || extra !== undefined) throw invalid("is not a cursor from this API");
  const given = Buffer.from(signature, "base64url");
  const expected = mac(secret, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw invalid("is not a cursor from this API (altered or expired)");
  const body = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as CursorBody;
  if (body.s !== sort.sortBy || body.d !== sort.sortDirection) {
    throw invalid(`was made for sortBy=${body.s}&sortDirection=${body.d}; repeat the query with the same sort`);
  }
  return { value: body.v, id: body.i };
}
