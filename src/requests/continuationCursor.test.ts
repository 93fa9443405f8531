import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "./continuationCursor.js";

describe("continuation cursor", () => {
  const secret = randomBytes(32);
  const sort = { sortBy: "createdAt", sortDirection: "desc" } as const;
  const keyset = { value: "2026-11-22 03:10:05.123456+00", id: `0x${"ab".repeat(32)}` };

  it("round-trips and is opaque", () => {
    const cursor = encodeCursor(secret, sort, keyset);
    expect(cursor).not.toContain(keyset.id);
    expect(decodeCursor(secret, sort, cursor)).toEqual(keyset);
  });

  it("refuses tampering, another secret, another sort and garbage with 400 naming continuation", () => {
    const cursor = encodeCursor(secret, sort, keyset);
    const [payload, signature] = cursor.split(".");
    const forged = Buffer.from(
      JSON.stringify({ s: "createdAt", d: "desc", v: "2030-01-01 00:00:00+00", i: keyset.id }),
    ).toString("base64url");
    for (const bad of [
      `${forged}.${signature}`,
      `${payload}.${signature.slice(0, -2)}AA`,
      "garbage",
      `${payload}`,
      `${cursor}.x`,
    ]) {
      expect(() => decodeCursor(secret, sort, bad)).toThrow(
        expect.objectContaining({ status: 400, message: expect.stringMatching(/^continuation:/) }),
      );
    }
    expect(() => decodeCursor(randomBytes(32), sort, cursor)).toThrow(/continuation/);
    expect(() => decodeCursor(secret, { sortBy: "createdAt", sortDirection: "asc" }, cursor)).toThrow(/same sort/);
  });
});
