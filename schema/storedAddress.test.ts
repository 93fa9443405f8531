import { describe, expect, it } from "vitest";
import { storedAddress } from "./storedAddress.js";

describe("storedAddress", () => {
  it("lower-cases EVM addresses only; base58 and bech32 stay as their codec wrote them", () => {
    expect(storedAddress("0xAbCdEF0000000000000000000000000000000001")).toBe(
      "0xabcdef0000000000000000000000000000000001",
    );
    expect(storedAddress("mxS9fVTPny6P3DJ13TrwKbfyHHGpqx7mZn")).toBe("mxS9fVTPny6P3DJ13TrwKbfyHHGpqx7mZn");
    expect(storedAddress("2N1LGaGg836mqSQqiuUBLfcyGBhyZbremDX")).toBe("2N1LGaGg836mqSQqiuUBLfcyGBhyZbremDX");
    expect(storedAddress("bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080")).toBe(
      "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080",
    );
  });
});
