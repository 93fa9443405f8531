import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { evmSolver, evmSolverAddress } from "./evmSolver.js";

describe("evmSolverAddress", () => {
  it("is the solver's address and refuses every signature (the gateway holds no key)", async () => {
    const key = generatePrivateKey();
    const solver = evmSolverAddress(privateKeyToAccount(key).address.toLowerCase());
    expect(solver.address).toBe(evmSolver(key).address);
    await expect(solver.signMessage({ message: { raw: `0x${"11".repeat(32)}` } })).rejects.toThrow(
      `this role holds only the solver's address ${solver.address.toLowerCase()}, not its key`,
    );
    await expect(solver.signTransaction({ to: solver.address, value: 1n, chainId: 1 })).rejects.toThrow(/not its key/);
  });
});
