import { describe, expect, it } from "vitest";
import { parseConfig } from "./config.js";
import { DEVNET_PRICES, rolePrices } from "./rolePrices.js";

describe("rolePrices", () => {
  it("takes PRICES when it is set, whatever the role", () => {
    const config = parseConfig({ PRICES: "ETH=3150.25,USDC=1" });
    for (const role of ["dev", "api", "worker"])
      expect(rolePrices(config, role)).toEqual({ ETH: "3150.25", USDC: "1" });
  });

  it("falls back to the devnet's prices for dev only; api and worker refuse to run on them, saying why", () => {
    for (const config of [parseConfig({}), parseConfig({ PRICES: "" })]) {
      expect(rolePrices(config, "dev")).toBe(DEVNET_PRICES);
      for (const role of ["api", "worker"])
        expect(() => rolePrices(config, role)).toThrow(
          new RegExp(`^PRICES is required for crossfill ${role}: prices come from a static table`),
        );
    }
  });
});
