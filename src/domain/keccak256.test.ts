import { randomBytes } from "node:crypto";
import { type Hex, keccak256 as keccak256Js } from "viem";
import { describe, expect, it } from "vitest";
import { keccak256, keccakReady } from "./keccak256.js";

describe("keccak256", () => {
  it("hashes exactly as viem does, before and after the WebAssembly Keccak is ready", async () => {
    const inputs: Hex[] = [
      "0x",
      "0x00",
      ...[1, 31, 32, 135, 136, 137, 1_600, 5_000].map((n) => `0x${randomBytes(n).toString("hex")}` as Hex),
    ];
    const before = inputs.map((input) => keccak256(input));
    await keccakReady;
    expect(inputs.map((input) => keccak256(input))).toEqual(inputs.map((input) => keccak256Js(input)));
    expect(before).toEqual(inputs.map((input) => keccak256Js(input)));
    // The empty string's Keccak-256, the constant every EVM uses for empty code.
    expect(keccak256("0x")).toBe("0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470");
  });
});
