import { describe, expect, it } from "vitest";
import { esploraUrlRefusal } from "./esploraUrlRefusal.js";

describe("esploraUrlRefusal", () => {
  it("accepts https anywhere and plain http on loopback only", () => {
    for (const ok of [
      "https://blockstream.info/api",
      "https://10.0.0.5:3000",
      "http://127.0.0.1:3002",
      "http://localhost:3000",
      "http://[::1]:3000",
    ])
      expect(esploraUrlRefusal(ok), ok).toBeUndefined();
  });

  it("refuses plain http to any other host, other schemes and non-URLs", () => {
    for (const bad of [
      "http://blockstream.info/api",
      "http://10.0.0.5:3000",
      "http://127.0.0.1.evil.example",
      "ftp://127.0.0.1",
      "nope",
    ])
      expect(esploraUrlRefusal(bad), bad).toMatch(/expected/);
  });
});
