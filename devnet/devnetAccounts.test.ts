import { describe, expect, it } from "vitest";
import { privateKeyToAccount } from "viem/accounts";
import { devnetAccounts } from "./devnetAccounts.js";

describe("devnetAccounts", () => {
  it("derives anvil's well-known default accounts", () => {
    const { solver, testAccounts } = devnetAccounts();
    expect(solver.address).toBe("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    expect(solver.privateKey).toBe("0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80");
    expect(testAccounts.map((a) => a.address)).toEqual([
      "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
      "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
      "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65",
      "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc",
    ]);
    for (const a of [solver, ...testAccounts]) expect(privateKeyToAccount(a.privateKey).address).toBe(a.address);
  });
});
