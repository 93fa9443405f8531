import { address, networks } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import "./bitcoinFamily.js"; // registers the curve taproot addresses need
import { dustLimit } from "./dustLimit.js";

const script = (value: string) => address.toOutputScript(value, networks.bitcoin);

describe("dustLimit", () => {
  it("gives bitcoind's thresholds for the common output types", () => {
    expect(dustLimit(script("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"))).toBe(294n);
    expect(dustLimit(script("bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0"))).toBe(330n);
    expect(dustLimit(script("1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"))).toBe(546n);
    expect(dustLimit(script("3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy"))).toBe(540n);
  });
});
