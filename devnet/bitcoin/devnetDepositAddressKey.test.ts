import { describe, expect, it } from "vitest";
import { devnetDepositAddressKey } from "./devnetDepositAddressKey.js";

describe("devnetDepositAddressKey", () => {
  it("is the same testnet-versioned account key (tpub/tprv, depth 3) on every run", () => {
    const key = devnetDepositAddressKey();
    expect(key).toEqual(devnetDepositAddressKey());
    expect(key.xpub).toMatch(/^tpub/);
    expect(key.xprv).toMatch(/^tprv/);
    expect(key.xpub).not.toBe(key.xprv);
  });
});
